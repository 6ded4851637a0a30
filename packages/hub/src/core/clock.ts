/** The hub's clock is the contract's: one `Clock` for hub and cloud. */
export * from '@hearth/contract/clock';
