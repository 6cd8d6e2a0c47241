/** What the buyer's and the seller's order pages are called, and where they live. */
export const ORDER_PAGES = {
  buyer: {
    base: '/account/orders',
    title: 'Your orders',
    description: 'Books you’ve bought: where each one is, and what to do when it arrives.',
    crumb: 'Your orders',
  },
  seller: {
    base: '/account/sales',
    title: 'Your sales',
    description: 'Books you’ve sold: who to send them to, and when you’re paid.',
    crumb: 'Your sales',
  },
} as const;
