import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Attribute, Change, Client } from 'ldapts';

/**
 * A real LDAP directory for tests: Debian's OpenLDAP `slapd` (`apt-get install slapd ldap-utils`),
 * started privately on two free loopback ports (`ldap://` with StartTLS, and `ldaps://`) from a
 * `slapd.conf` in a temporary directory, with a self-signed CA and a server certificate for
 * 127.0.0.1 (openssl CLI), the `memberof` overlay (groups of names keep their members' `memberOf`),
 * suffix `dc=corp,dc=test`, and a service account `cn=svc,dc=corp,dc=test`. `stop()` kills it
 * (the directory is "down"), `start()` brings it back on the same ports with the same data.
 */
export interface TestLdapDirectory {
  /** `ldap://127.0.0.1:PORT` (plain; StartTLS upgrades it) */
  ldapUrl: string;
  /** `ldaps://127.0.0.1:PORT2` */
  ldapsUrl: string;
  /** the CA certificate (PEM) that signed the server's */
  caPem: string;
  baseDn: string;
  serviceDn: string;
  servicePassword: string;
  /** adds `uid=<uid>,ou=people,<base>` (inetOrgPerson) */
  addUser(user: {
    uid: string;
    mail: string;
    password: string;
    givenName?: string;
    sn?: string;
    cn?: string;
  }): Promise<string>;
  /** adds `cn=<name>,ou=groups,<base>` (groupOfNames) with these member DNs */
  addGroup(name: string, members: string[]): Promise<string>;
  /** adds (`add`) or removes (`delete`) a member of a group */
  changeMember(group: string, memberDn: string, operation: 'add' | 'delete'): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const SLAPD = '/usr/sbin/slapd';
const MODULES = '/usr/lib/ldap';
const SCHEMAS = '/etc/ldap/schema';
const BASE = 'dc=corp,dc=test';
const ROOT_DN = `cn=admin,${BASE}`;
const ROOT_PASSWORD = 'root-secret';
const SERVICE_PASSWORD = 'service-secret';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`slapd did not listen on 127.0.0.1:${port} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function makeCertificates(dir: string): string {
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Meridian test LDAP CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  run([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=127.0.0.1',
  ]);
  writeFileSync(
    path.join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n',
  );
  run([
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  ]);
  return readFileSync(path.join(dir, 'ca.pem'), 'utf8');
}

/** Starts the directory; throws a clear error when `slapd` is not installed. */
export async function startTestLdapDirectory(): Promise<TestLdapDirectory> {
  if (!existsSync(SLAPD) || !existsSync(path.join(MODULES, 'back_mdb.so'))) {
    throw new Error(
      `The LDAP tests need OpenLDAP's slapd (${SLAPD} and ${MODULES}/back_mdb.so): ` +
        'apt-get install -y slapd ldap-utils (.ci/run installs them).',
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-slapd-'));
  const data = path.join(dir, 'data');
  mkdirSync(data);
  const caPem = makeCertificates(dir);
  const [plainPort, tlsPort] = [await freePort(), await freePort()];
  writeFileSync(
    path.join(dir, 'slapd.conf'),
    [
      `include ${SCHEMAS}/core.schema`,
      `include ${SCHEMAS}/cosine.schema`,
      `include ${SCHEMAS}/inetorgperson.schema`,
      `include ${SCHEMAS}/nis.schema`,
      `pidfile ${dir}/slapd.pid`,
      `modulepath ${MODULES}`,
      'moduleload back_mdb',
      'moduleload memberof',
      `TLSCACertificateFile ${dir}/ca.pem`,
      `TLSCertificateFile ${dir}/server.pem`,
      `TLSCertificateKeyFile ${dir}/server.key`,
      'database mdb',
      `suffix "${BASE}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw ${ROOT_PASSWORD}`,
      `directory ${data}`,
      'maxsize 10485760',
      'overlay memberof',
      'access to attrs=userPassword by self =w by anonymous auth by * none',
      'access to * by * read',
      '',
    ].join('\n'),
  );
  const urls = `ldap://127.0.0.1:${plainPort}/ ldaps://127.0.0.1:${tlsPort}/`;
  let child: ChildProcess | null = null;
  let stderr = '';
  // a test process that dies without its `after` hook takes its directory with it
  process.once('exit', () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  async function start(): Promise<void> {
    // -d 0: stay in the foreground (killed with the test), logging nothing but fatal start errors
    child = spawn(SLAPD, ['-d', '0', '-h', urls, '-f', path.join(dir, 'slapd.conf')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<never>((_, reject) =>
      child!.once('exit', (code) => reject(new Error(`slapd exited (${code}) at start: ${stderr.slice(-2000)}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([Promise.all([waitForPort(plainPort, 15_000), waitForPort(tlsPort, 15_000)]), exited]);
    child.removeAllListeners('exit');
  }

  async function stop(): Promise<void> {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
      setTimeout(() => running.kill('SIGKILL'), 5000).unref();
    });
  }

  async function asRoot<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ url: `ldap://127.0.0.1:${plainPort}`, timeout: 10_000, connectTimeout: 5_000 });
    try {
      await client.bind(ROOT_DN, ROOT_PASSWORD);
      return await work(client);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  await start();
  try {
    await asRoot(async (c) => {
      await c.add(BASE, { objectClass: ['top', 'dcObject', 'organization'], dc: 'corp', o: 'Corp' });
      for (const ou of ['people', 'groups', 'services'])
        await c.add(`ou=${ou},${BASE}`, { objectClass: ['top', 'organizationalUnit'], ou });
      await c.add(`cn=svc,${BASE}`, {
        objectClass: ['top', 'person'],
        cn: 'svc',
        sn: 'Service',
        userPassword: SERVICE_PASSWORD,
      });
    });
  } catch (err) {
    await stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  return {
    ldapUrl: `ldap://127.0.0.1:${plainPort}`,
    ldapsUrl: `ldaps://127.0.0.1:${tlsPort}`,
    caPem,
    baseDn: BASE,
    serviceDn: `cn=svc,${BASE}`,
    servicePassword: SERVICE_PASSWORD,
    async addUser(user) {
      const dn = `uid=${user.uid},ou=people,${BASE}`;
      await asRoot((c) =>
        c.add(dn, {
          objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
          uid: user.uid,
          mail: user.mail,
          cn: user.cn ?? user.uid,
          sn: user.sn ?? user.uid,
          ...(user.givenName ? { givenName: user.givenName } : {}),
          ...(user.cn ? { displayName: user.cn } : {}),
          userPassword: user.password,
        }),
      );
      return dn;
    },
    async addGroup(name, members) {
      const dn = `cn=${name},ou=groups,${BASE}`;
      await asRoot((c) => c.add(dn, { objectClass: ['top', 'groupOfNames'], cn: name, member: members }));
      return dn;
    },
    async changeMember(group, memberDn, operation) {
      await asRoot((c) =>
        c.modify(
          `cn=${group},ou=groups,${BASE}`,
          new Change({ operation, modification: new Attribute({ type: 'member', values: [memberDn] }) }),
        ),
      );
    },
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
