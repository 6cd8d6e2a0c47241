/** The staff domain's procedures: the staff area's own tools, and the global admins'. */
import { router } from '../trpc.ts';
import { accessibilityRouter } from './accessibility/accessibility.router.ts';
import { analyticsRouter } from './analytics/analytics.router.ts';
import { auditRouter } from './audit/audit.router.ts';
import { adminRouter } from './dashboard/admin.router.ts';
import { emailTemplatesRouter } from './email-templates/email-templates.router.ts';
import { globalAdminRouter } from './global-admin/global-admin.router.ts';
import { jobLogRouter } from './job-log/job-log.router.ts';
import { launchPlanRouter } from './launch-plan/launch-plan.router.ts';
import { opsRouter } from './ops/ops.router.ts';
import { requestLogRouter } from './request-log/request-log.router.ts';
import { seoRouter } from './seo/seo.router.ts';
import { usersRouter } from './users/users.router.ts';

export const staffDomainRouter = router({
  dashboard: adminRouter,
  users: usersRouter,
  audit: auditRouter,
  emailTemplates: emailTemplatesRouter,
  jobLog: jobLogRouter,
  requestLog: requestLogRouter,
  analytics: analyticsRouter,
  launchPlan: launchPlanRouter,
  seo: seoRouter,
  accessibility: accessibilityRouter,
  globalAdmin: globalAdminRouter,
  ops: opsRouter,
});
