import { MeridianError } from '#common';
import { EntityManager } from 'typeorm';
import { hashPassword, verifyPassword } from '../kernel/password';
import { findUserByEmail, insertUser } from '../user';
import type { User } from '../user';
import type { Instance } from './instance.entity';
import { InstanceRepository } from './instance.repository';

/** Plane's instance version, reported by `GET /api/instances/`. */
export const INSTANCE_VERSION = '0.25.3';

export interface InstanceSetupInput {
  email: string;
  password: string;
  first_name: string;
  last_name?: string | null;
  company_name?: string | null;
}

/**
 * The first set-up (Plane's admin sign-up, `plane/license/api/views/admin.py`), in the
 * caller's transaction: while no instance admin exists, makes the user with this email (created,
 * or an existing one whose password matches) the first instance admin, marks the instance set up
 * and names it after `company_name` (if given). Used by `POST /api/instances/admins/sign-up/` and
 * by the CLI's `admin create`.
 *
 * Errors: 403 `ADMIN_ALREADY_EXIST` once an admin exists; 401 `ADMIN_AUTHENTICATION_FAILED` when
 * the email belongs to a user whose password does not match (or who is deactivated).
 */
export async function setUpInstance(
  em: EntityManager,
  input: InstanceSetupInput,
): Promise<{ user: User; instance: Instance; created: boolean }> {
  const instances = new InstanceRepository(em.connection);
  const instance = await instances.ensureInstance(em);
  // serialise concurrent set-ups on the instance row
  await instances.lockInstance(em, instance.id);
  if ((await instances.countAdmins(em)) > 0) throw new MeridianError('ADMIN_ALREADY_EXIST');

  const email = input.email.trim().toLowerCase();
  let user = await findUserByEmail(em, email);
  const created = !user;
  if (user) {
    if (!(await verifyPassword(user.passwordHash, input.password)) || !user.isActive) {
      throw new MeridianError(
        'ADMIN_AUTHENTICATION_FAILED',
        'A user with this email exists and the password does not match it.',
      );
    }
  } else {
    user = await insertUser(em, {
      email,
      passwordHash: await hashPassword(input.password),
      firstName: input.first_name.trim(),
      lastName: input.last_name?.trim() ?? '',
      displayName: email.split('@')[0].slice(0, 255),
      isActive: true,
    });
  }
  await instances.insertAdmin(em, {
    userId: user.id,
    instanceId: instance.id,
    role: 20,
    isVerified: true,
    createdById: user.id,
  });
  const name = input.company_name?.trim();
  await instances.updateInstance(em, instance.id, { isSetupDone: true, ...(name ? { instanceName: name } : {}) });
  return { user, instance: await instances.instanceByIdOrFail(em, instance.id), created };
}
