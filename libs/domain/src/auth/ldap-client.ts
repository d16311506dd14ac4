import { MeridianError } from '#common';
import type { Client, Entry } from 'ldapts';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { ldapFilter, LdapSettings, ldapts } from './ldap-settings';

/**
 * The directory could not be asked: not reachable, timed out, TLS refused, or it refused the
 * service account or the base DN (a misconfiguration that appeared after the save). `message`
 * names the cause for the log; it never holds a password.
 */
export class LdapUnavailableError extends Error {
  override name = 'LdapUnavailableError';
}

/** What the directory says about an email and a password. */
export type LdapLookup =
  /** no entry matches the filter */
  | { outcome: 'no-entry' }
  /** more than one entry matches (the filter is too loose): refused, logged */
  | { outcome: 'ambiguous' }
  /** the entry exists and the directory refused the password (or the account: locked, disabled) */
  | { outcome: 'refused'; dn: string }
  | { outcome: 'ok'; user: LdapUser };

/** The signed-in directory user's mapped attributes. */
export interface LdapUser {
  dn: string;
  email: string | null;
  firstName: string;
  lastName: string;
  displayName: string;
  /** the groups' DNs, and each group's name (its DN's first value, or `group_name_attribute`) */
  groups: string[];
}

function first(entry: Entry, attribute: string): string {
  const value = valueOf(entry, attribute);
  return value.length ? value[0] : '';
}

function valueOf(entry: Entry, attribute: string): string[] {
  if (!attribute) return [];
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const raw = key ? entry[key] : undefined;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v))).filter((v) => v !== '');
}

/** The value of a DN's first RDN (`cn=devs,ou=groups,…` → `devs`), unescaped enough for names. */
export function firstRdnValue(dn: string): string {
  const match = /^[^=]+=((?:\\.|[^,\\])*)/.exec(dn);
  return match ? match[1].replace(/\\(.)/g, '$1').trim() : '';
}

function tlsOptionsOf(s: LdapSettings, host: string): ConnectionOptions {
  return {
    ...(s.caCertificate ? { ca: [s.caCertificate] } : {}),
    host,
    ...(isIP(host) ? {} : { servername: host }),
    minVersion: 'TLSv1.2',
  };
}

/** A connection to the directory, TLS as the settings say (ldaps, or StartTLS on ldap://). */
async function connect(s: LdapSettings): Promise<Client> {
  const url = new URL(s.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const secure = url.protocol === 'ldaps:';
  const client = new (ldapts().Client)({
    url: s.url,
    timeout: s.timeoutMs,
    connectTimeout: s.connectTimeoutMs,
    ...(secure ? { tlsOptions: tlsOptionsOf(s, host) } : {}),
  });
  if (!secure && s.startTls) await client.startTLS(tlsOptionsOf(s, host));
  return client;
}

/**
 * Runs `work` on a connection, closed after; the whole of it is bounded by
 * `connectTimeoutMs + 4 × timeoutMs` (a TLS handshake that never ends included): past it, a
 * `LdapUnavailableError`.
 */
async function withDirectory<T>(s: LdapSettings, work: (client: Client) => Promise<T>): Promise<T> {
  let client: Client | null = null;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new LdapUnavailableError(`no answer within ${s.connectTimeoutMs + 4 * s.timeoutMs} ms`)),
      s.connectTimeoutMs + 4 * s.timeoutMs,
    );
  });
  try {
    return await Promise.race([
      (async () => {
        client = await connect(s);
        return work(client);
      })(),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
    const open = client as Client | null;
    if (open) await open.unbind().catch(() => undefined);
  }
}

function describe(err: unknown): string {
  const e = err as { message?: string; code?: unknown };
  return [e?.message ?? String(err), typeof e?.code === 'string' ? e.code : ''].filter(Boolean).join(' ').trim();
}

/** The service account's bind; a refusal is the directory's answer, anything else unavailability. */
async function serviceBind(client: Client, s: LdapSettings, password: string): Promise<void> {
  await client.bind(s.bindDn, password);
}

/**
 * What a check of the directory found wrong (`probeLdapDirectory`): `reached` when the directory
 * answered and refused (the service bind, a missing base DN): a configuration error; false when it
 * could not be reached (down, silent, TLS refused), which may be passing. `setting` names the
 * setting at fault (`bind_password`, `base_dn`, `group_search_base`, `url`).
 */
export interface LdapCheckProblem {
  reached: boolean;
  setting: 'bind_password' | 'base_dn' | 'group_search_base' | 'url';
  detail: string;
}

/**
 * Checks that the directory takes these settings (docs/sso-ldap.md): it answers (over TLS as
 * configured, trusting the CA given), the service account binds, and the base DN (and the group
 * search base) exist. Null when all holds, else what failed; never throws. Bounded by the
 * settings' connect and operation timeouts.
 */
export async function probeLdapDirectory(s: LdapSettings, password: string): Promise<LdapCheckProblem | null> {
  let step: 'connect' | 'bind' | 'base' | 'group-base' = 'connect';
  try {
    await withDirectory(s, async (client) => {
      step = 'bind';
      await serviceBind(client, s, password);
      step = 'base';
      await client.search(s.baseDn, { scope: 'base', filter: '(objectClass=*)', attributes: ['1.1'] });
      if (s.groupSearchBase) {
        step = 'group-base';
        await client.search(s.groupSearchBase, { scope: 'base', filter: '(objectClass=*)', attributes: ['1.1'] });
      }
    });
    return null;
  } catch (err) {
    const at = step as string;
    if (at === 'bind' && err instanceof ldapts().InvalidCredentialsError)
      return {
        reached: true,
        setting: 'bind_password',
        detail: `The directory refused the service account's bind as "${s.bindDn}" (invalid credentials).`,
      };
    if (at === 'bind' && err instanceof ldapts().ResultCodeError)
      return {
        reached: true,
        setting: 'bind_password',
        detail: `The directory refused the service account's bind as "${s.bindDn}": ${describe(err)}.`,
      };
    if ((at === 'base' || at === 'group-base') && err instanceof ldapts().NoSuchObjectError)
      return at === 'base'
        ? { reached: true, setting: 'base_dn', detail: `The base DN "${s.baseDn}" does not exist in the directory.` }
        : {
            reached: true,
            setting: 'group_search_base',
            detail: `The group search base "${s.groupSearchBase}" does not exist in the directory.`,
          };
    if (err instanceof ldapts().ResultCodeError)
      return { reached: true, setting: 'url', detail: `The directory refused the check: ${describe(err)}.` };
    return {
      reached: false,
      setting: 'url',
      detail: `The directory at ${s.url} could not be reached over ${tlsName(s)}: ${describe(err)}.`,
    };
  }
}

/**
 * Checks at save time that the directory takes these settings (`probeLdapDirectory`). 422
 * `LDAP_CHECK_FAILED` with the cause in `detail` otherwise.
 */
export async function checkLdapDirectory(s: LdapSettings, password: string): Promise<void> {
  const problem = await probeLdapDirectory(s, password);
  if (problem) throw new MeridianError('LDAP_CHECK_FAILED', problem.detail);
}

function tlsName(s: LdapSettings): string {
  return s.url.startsWith('ldaps:') ? 'LDAPS' : s.startTls ? 'StartTLS' : 'plain LDAP';
}

/**
 * Looks up the email's entry as the service account (the settings' filter, subtree of the base DN;
 * at most one entry), reads its attributes and groups, then binds as that entry with `password`.
 * Throws `LdapUnavailableError` when the directory cannot be asked (see there); the password is
 * never logged nor part of an error.
 */
export async function lookupLdapUser(
  s: LdapSettings,
  servicePassword: string,
  email: string,
  password: string,
): Promise<LdapLookup> {
  try {
    return await withDirectory(s, async (client) => {
      try {
        await serviceBind(client, s, servicePassword);
      } catch (err) {
        throw new LdapUnavailableError(`the service account's bind failed: ${describe(err)}`);
      }
      const attributes = [s.emailAttribute, s.firstNameAttribute, s.lastNameAttribute, s.displayNameAttribute];
      if (s.groupsAttribute) attributes.push(s.groupsAttribute);
      let entries: Entry[];
      try {
        ({ searchEntries: entries } = await client.search(s.baseDn, {
          scope: 'sub',
          filter: ldapFilter(s.userFilter, { email }),
          attributes,
          sizeLimit: 2,
        }));
      } catch (err) {
        if (err instanceof ldapts().SizeLimitExceededError) return { outcome: 'ambiguous' } as const;
        if (err instanceof ldapts().ResultCodeError)
          throw new LdapUnavailableError(`the user search failed: ${describe(err)}`);
        throw err;
      }
      if (entries.length === 0) return { outcome: 'no-entry' } as const;
      if (entries.length > 1) return { outcome: 'ambiguous' } as const;
      const entry = entries[0];
      const groups = new Set<string>();
      for (const dn of valueOf(entry, s.groupsAttribute)) {
        groups.add(dn);
        groups.add(firstRdnValue(dn));
      }
      if (s.groupSearchBase) {
        try {
          const { searchEntries } = await client.search(s.groupSearchBase, {
            scope: 'sub',
            filter: ldapFilter(s.groupFilter, { dn: entry.dn, email }),
            attributes: [s.groupNameAttribute],
            sizeLimit: 1000,
          });
          for (const g of searchEntries) {
            groups.add(g.dn);
            for (const name of valueOf(g, s.groupNameAttribute)) groups.add(name);
          }
        } catch (err) {
          if (err instanceof ldapts().ResultCodeError)
            throw new LdapUnavailableError(`the group search failed: ${describe(err)}`);
          throw err;
        }
      }
      try {
        await client.bind(entry.dn, password);
      } catch (err) {
        // the directory's answer on the user's own credentials: wrong password, locked, disabled
        if (err instanceof ldapts().ResultCodeError) return { outcome: 'refused', dn: entry.dn } as const;
        throw err;
      }
      groups.delete('');
      return {
        outcome: 'ok',
        user: {
          dn: entry.dn,
          email: first(entry, s.emailAttribute) || null,
          firstName: first(entry, s.firstNameAttribute),
          lastName: first(entry, s.lastNameAttribute),
          displayName: first(entry, s.displayNameAttribute),
          groups: [...groups],
        },
      } as const;
    });
  } catch (err) {
    if (err instanceof LdapUnavailableError) throw err;
    throw new LdapUnavailableError(`${tlsName(s)} to ${s.url}: ${describe(err)}`);
  }
}
