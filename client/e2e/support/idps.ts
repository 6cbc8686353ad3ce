// The test identity providers for university sign-in (sso.e2e.ts): the Go
// command sso/ssotest/cmd/idps runs an OpenID provider (zitadel/oidc's
// example server) and a SAML IdP (crewjam/saml's samlidp) on loopback,
// prints the CAMPUS_* variables that point a server at both, and uploads the
// server's SAML metadata once it answers. Builds nothing: `make idps` (or
// `make e2e`) puts the binary at ../bin/campus-idps; CAMPUS_IDPS_BIN points
// elsewhere.

import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { CLIENT_DIR } from './server';

export interface RunningIdps {
  /** The server's university sign-in variables (CAMPUS_OIDC_*, CAMPUS_SAML_*, CAMPUS_SSO_*). */
  env: Record<string, string>;
  logFile: string;
  stop: () => Promise<void>;
}

/** Starts the identity providers for a Campus server at origin; dir holds its key pair and log. */
export async function startIdps(origin: string, dir: string): Promise<RunningIdps> {
  const bin = resolve(CLIENT_DIR, process.env.CAMPUS_IDPS_BIN ?? '../bin/campus-idps');
  if (!existsSync(bin)) throw new Error(`No test identity providers at ${bin}: run \`make idps\` first or set CAMPUS_IDPS_BIN.`);
  const logFile = join(dir, 'idps.log');
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(bin, ['-origin', origin, '-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.pipe(log);

  const stop = () =>
    new Promise<void>((ok) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        log.end();
        return ok();
      }
      child.once('exit', () => {
        log.end();
        ok();
      });
      child.kill('SIGTERM');
    });

  // The first line on stdout is the variables, as JSON.
  const lines = createInterface({ input: child.stdout! });
  const first = new Promise<string>((ok, fail) => {
    lines.once('line', ok);
    child.once('exit', (code) => fail(new Error(`campus-idps exited (${code}) before it was ready; see ${logFile}`)));
    setTimeout(() => fail(new Error('campus-idps printed nothing within 30 s')), 30_000).unref();
  });
  try {
    const env = JSON.parse(await first) as Record<string, string>;
    return { env, logFile, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
