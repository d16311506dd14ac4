import { CredentialVerifier, Principal } from '#common';
import { Injectable } from '@nestjs/common';
import { ApiTokenService } from '../api-token';
import { SessionService } from './session.service';

/** The domain's `CredentialVerifier`: session access tokens, web session cookies and API keys. */
@Injectable()
export class CredentialVerifierService implements CredentialVerifier {
  constructor(
    private readonly sessions: SessionService,
    private readonly apiTokens: ApiTokenService,
  ) {}

  verifyAccessToken(token: string): Promise<Principal | null> {
    return this.sessions.verifyAccessToken(token);
  }

  verifyWebSessionToken(token: string): Promise<Principal | null> {
    return this.sessions.verifyAccessToken(token, 'web');
  }

  verifyApiKeyDigest(digest: string): Promise<Principal | null> {
    return this.apiTokens.verifyDigest(digest);
  }
}
