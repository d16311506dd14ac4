declare module 'passport-gitlab2' {
  import OAuth2Strategy from 'passport-oauth2';

  /** passport-gitlab2 5.x: an OAuth2Strategy with GitLab's endpoints and profile (no bundled types). */
  export class Strategy extends OAuth2Strategy {
    constructor(
      options: OAuth2Strategy.StrategyOptions & { baseURL?: string; profileURL?: string },
      verify: (
        accessToken: string,
        refreshToken: string,
        profile: unknown,
        done: (err: unknown, user?: unknown) => void,
      ) => void,
    );
  }
}
