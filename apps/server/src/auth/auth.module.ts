import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import { AuthController } from './auth.controller';
import { OAuthController, SpaceOAuthController } from './oauth.controller';
import { OidcController } from './oidc.controller';
import { PasswordlessController } from './passwordless.controller';
import { SamlController } from './saml.controller';
import { SessionsController } from './sessions.controller';
import { WebAuthController } from './web-auth.controller';

/** Authentication module, mounted at `/auth/`. */
@Module({
  imports: [DomainModule],
  controllers: [
    AuthController,
    SessionsController,
    PasswordlessController,
    OAuthController,
    SpaceOAuthController,
    OidcController,
    SamlController,
    WebAuthController,
  ],
})
export class AuthModule {}
