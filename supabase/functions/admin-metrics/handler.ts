import { adminMetrics } from '../_shared/admin.ts';
import { createHandler } from '../_shared/handler.ts';

export const handler = createHandler('admin-metrics', ({ sql, body }) => adminMetrics(sql, body));
