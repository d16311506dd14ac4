import { BearerAuth, CurrentPrincipal, Principal } from '#common';
import { NotificationPreferenceJson, NotificationPreferenceService } from '#domain';
import { Body, Controller, Get, Patch } from '@nestjs/common';
import { UpdateNotificationPreferencesDto } from './dto/profile.dto';

/**
 * The signed-in user's account settings beyond the profile (Plane 0.25.3 `plane/app/views/`:
 * `notification/base.py` UserNotificationPreferenceEndpoint).
 */
@Controller('users/me')
@BearerAuth()
export class AppAccountController {
  constructor(private readonly notificationPreferences: NotificationPreferenceService) {}

  /** 200 Plane's `UserNotificationPreference` (made on first read, every switch on). */
  @Get('notification-preferences')
  notificationPrefs(@CurrentPrincipal() me: Principal): Promise<NotificationPreferenceJson> {
    return this.notificationPreferences.get(me.userId);
  }

  /** Partial update of `property_change`, `state_change`, `comment`, `mention`, `issue_completed` → 200; 422 a non-boolean. */
  @Patch('notification-preferences')
  updateNotificationPrefs(
    @CurrentPrincipal() me: Principal,
    @Body() body: UpdateNotificationPreferencesDto,
  ): Promise<NotificationPreferenceJson> {
    return this.notificationPreferences.update(me.userId, body);
  }
}
