/** The staff domain's public surface (api/scripts/check-imports.ts): its procedures and the demo covers the seed draws. */
export { attachDemoCovers, type DemoCoversReport } from './dashboard/demo-covers.ts';
export { bootstrapFirstAdmin } from './ops/ops.service.ts';
export { staffDomainRouter } from './staff.router.ts';
