import type { userMeView } from '../user';
import type { ClientInfo, IssuedTokens } from './session.service';
import type { ResolvedSsoConnection } from './sso-connection.service';

/**
 * The password check of a directory connection (`kind: "ldap"`, docs/sso-ldap.md), as
 * `AccountService.signIn` asks it: the session and the user's view, or null when the directory has
 * no entry and the connection lets the local password decide. `LdapService` is the implementation
 * (bound in `AuthFeatureModule`); this port keeps `AccountService` free of the services the
 * directory sign-in itself needs.
 */
export abstract class DirectorySignIn {
  abstract signIn(
    connection: ResolvedSsoConnection,
    email: string,
    password: string,
    client: ClientInfo,
  ): Promise<(IssuedTokens & { user: ReturnType<typeof userMeView> }) | null>;
}
