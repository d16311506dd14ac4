import { ROLE } from '#common';
import { iso } from '../kernel/time';
import { userLiteFor, userLiteView } from '../user';
import type { Profile, User, Viewer } from '../user';

const ROLE_SLUGS: Record<number, string> = { [ROLE.ADMIN]: 'admin', [ROLE.MEMBER]: 'member', [ROLE.GUEST]: 'guest' };

/**
 * A member as Plane's newer v1 lists them: UserLite plus `role` and `role_slug`
 * (`plane-node-sdk/dist/models/Member.d.ts`); with `viewer`, the email follows `canSeeEmail` (a Guest
 * sees only their own).
 */
export function memberView(user: User, role: number, viewer?: Viewer) {
  return { ...(viewer ? userLiteFor(user, viewer) : userLiteView(user)), role, role_slug: ROLE_SLUGS[role] ?? null };
}
export type MemberJson = ReturnType<typeof memberView>;

/** Plane's ProfileSerializer. */
export function profileView(p: Profile) {
  return {
    id: p.id,
    user: p.userId,
    theme: p.theme,
    is_tour_completed: p.isTourCompleted,
    onboarding_step: p.onboardingStep,
    use_case: p.useCase,
    role: p.role,
    is_onboarded: p.isOnboarded,
    last_workspace_id: p.lastWorkspaceId,
    billing_address_country: p.billingAddressCountry,
    billing_address: p.billingAddress,
    has_billing_address: p.hasBillingAddress,
    company_name: p.companyName,
    is_smooth_cursor_enabled: p.isSmoothCursorEnabled,
    is_mobile_onboarded: p.isMobileOnboarded,
    mobile_onboarding_step: p.mobileOnboardingStep,
    mobile_timezone_auto_set: p.mobileTimezoneAutoSet,
    language: p.language,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}
export type ProfileJson = ReturnType<typeof profileView>;
