// Who gets a /ws connection, decided at the upgrade as HTTP decides a request: the same session
// check (a token HTTP refuses is refused here: bad, expired, revoked), the same rate limiter (a bad
// token counts by IP before its 401, as on HTTP), then the per-IP and per-user connection caps.
import type { IncomingMessage } from "node:http";
import { clientIpFrom } from "../../lib/client-ip.ts";
import { AppError, STATUS, type ErrorCode } from "../../lib/errors.ts";
import type { TokenClaims, AuthService } from "../auth.service.ts";
import type { RateDecision, RateLimiter } from "../rate-limit.service.ts";
import type { connectionCaps } from "./realtime-sessions.ts";

export interface Refusal {
  status: number;
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
}

export interface Admitted {
  /** Lower-case address of a signed-in connection, else null. */
  address: string | null;
  session: { userId: string; claims: TokenClaims } | null;
  /** Gives the connection's slots back (idempotent). */
  release(): void;
}

const refusal = (code: ErrorCode, message: string, headers?: Record<string, string>): Refusal => ({ status: STATUS[code], code, message, headers });

const rateHeaders = (d: RateDecision): Record<string, string> => ({
  "X-RateLimit-Limit": String(d.limit),
  "X-RateLimit-Remaining": String(d.remaining),
  "X-RateLimit-Reset": String(d.resetSeconds),
  "Retry-After": String(d.resetSeconds),
});

export function upgradeAdmission(deps: {
  auth: Pick<AuthService, "authenticate">;
  rateLimiter: Pick<RateLimiter, "hit">;
  caps: ReturnType<typeof connectionCaps>;
  trustProxy: boolean;
  onRateLimited?: () => void;
}) {
  return async (req: IncomingMessage, token: string | null): Promise<Admitted | Refusal> => {
    const ip = clientIpFrom(req.headers["x-forwarded-for"], req.socket.remoteAddress, deps.trustProxy);
    let session: Awaited<ReturnType<AuthService["authenticate"]>> | null = null;
    let authError: AppError | null = null;
    try {
      if (token !== null) session = await deps.auth.authenticate(token);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      authError = err;
    }
    const user = session?.user;
    const decision = await deps.rateLimiter.hit({ userId: user?.id, premium: user?.premium, ip });
    if (!decision.allowed) {
      deps.onRateLimited?.();
      return refusal("RATE_LIMITED", `Rate limit of ${decision.limit} requests per minute exceeded`, rateHeaders(decision));
    }
    if (authError) return refusal(authError.code, authError.message);
    const slot = deps.caps.reserve(ip, user?.id ?? null);
    if ("refused" in slot) {
      return slot.refused === "ip"
        ? refusal("RATE_LIMITED", `At most ${deps.caps.maxPerIp} open WebSocket connections per IP address: close one first`)
        : refusal("RATE_LIMITED", `At most ${deps.caps.maxPerUser} open WebSocket connections per user: close one first`);
    }
    return {
      address: user ? user.evmAddress : null,
      session: session ? { userId: session.user.id, claims: session.claims } : null,
      release: slot.release,
    };
  };
}
