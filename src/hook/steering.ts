/** The steering reason moved to the policy layer (policy/steering.ts) so the audit log can use it too; this name is kept for importers. */
export { steeringReason, type Steering } from '../policy/steering.js';
