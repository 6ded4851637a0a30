/**
 * The typed protocol between a hub and an app process: the calls and events each side may send (with their
 * schemas) and the peer both ends speak it through.
 */
export * from './messages';
export * from './peer';
