import type { Selectable } from 'kysely';
import type { OrdersTable } from './tables';

/** An order as the wire shows it (`GET /store/user/order`, the support form and the account pages read it). */
export function orderRecord(order: Selectable<OrdersTable>) {
  return {
    _id: order.id,
    id: order.id,
    number: order.number,
    date: order.created_at.toISOString(),
    status: order.status,
    currency: order.currency,
    total: order.total,
    items: order.items,
    ...(order.shipping_address ? { shippingAddress: order.shipping_address } : {}),
    // Orders made at checkout carry their sums; the older imported ones only their total.
    ...(order.subtotal !== null
      ? {
          subtotal: order.subtotal,
          discount: order.discount,
          vat: order.vat,
          net: order.total - order.vat,
          vatRate: (order.vat_rate ?? 0) / 100,
          reverseCharge: order.reverse_charge,
          ...(order.vat_number ? { vatNumber: order.vat_number } : {}),
          ...(order.coupon_code ? { couponCode: order.coupon_code } : {}),
          paymentMethod: order.payment_method,
          paidAt: order.paid_at ? order.paid_at.toISOString() : null,
        }
      : {}),
  };
}
