// Sign-in with Ethereum and session tokens. No Hono imports: routes call this.
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import { getAddress, isAddress, isHex, recoverMessageAddress, type Address, type Hex, type PublicClient } from "viem";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { AppError } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";
import type { NonceRow, NoncesRepository } from "../repositories/nonces.repository.ts";
import type { UserRow, UsersRepository } from "../repositories/users.repository.ts";
import type { KeyedLimit } from "./rate-limit.service.ts";
import { siweProblem } from "./siwe.ts";

export const TOKEN_TTL_SECONDS = 24 * 60 * 60;
const DEV_SECRET = "dev-only-insecure-jwt-secret-never-use-in-production";

export interface AuthConfig {
  jwtSecret: string | undefined;
  issuer: string;
  audience: string;
  domain: string;
  uri: string;
  chainId: number;
  nonceTtlSeconds: number;
  /** Live (unused, unexpired) messages an address may have at once, whoever requested them. */
  liveMessagesMax: number;
}

export interface TokenClaims {
  userId: string;
  address: Address;
  /** The user's session epoch when the token was issued (0 for tokens that predate epochs). */
  sessionEpoch: number;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

/** Tokens a process remembers as verified (see verifyToken); the oldest goes first past this. */
const VERIFIED_TOKENS_MAX = 10_000;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const unauthorized = (message: string) => new AppError("UNAUTHORIZED", message);

export function authService(deps: {
  config: AuthConfig;
  nonces: NoncesRepository;
  users: UsersRepository;
  publicClient: PublicClient;
  logger: Logger;
  /** Counts sign-in messages per address and client (the API's rate-limit store). */
  issuance: KeyedLimit;
}) {
  const { config, nonces, users, publicClient, logger, issuance } = deps;
  if (!config.jwtSecret) {
    logger.warn("JWT_SECRET is not set: using the built-in development secret (never in production)");
  }
  // The HMAC key is imported once: given the raw bytes, jose imports a WebCrypto key on every
  // sign and verify (a verify took 72–116 µs of CPU with the bytes, 45–51 µs with this key; every
  // signed-in request verifies one).
  const key = crypto.subtle.importKey("raw", new TextEncoder().encode(config.jwtSecret ?? DEV_SECRET), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);

  /**
   * The candidate the signature signs. Every ECDSA recovery first (CPU only), then, if none matched,
   * one code lookup and the EIP-1271 check per candidate only for a contract wallet.
   */
  async function matchingMessage(address: Address, candidates: NonceRow[], signature: Hex): Promise<NonceRow | undefined> {
    for (const row of candidates) {
      try {
        if ((await recoverMessageAddress({ message: row.message, signature })) === address) return row;
      } catch {
        break; // not an ECDSA signature (the same for every message): may still be a contract wallet's
      }
    }
    try {
      const code = await publicClient.getCode({ address });
      if (!code || code === "0x") return undefined;
      for (const row of candidates) {
        if (await publicClient.verifyMessage({ address, message: row.message, signature })) return row;
      }
    } catch (err) {
      // Chain unreachable: a contract wallet's signature cannot be checked now; refuse (401).
      logger.warn("EIP-1271 check failed", { err: err instanceof Error ? err.message : String(err) });
    }
    return undefined;
  }

  const tooMany = (message: string, retryAfterSeconds: number) =>
    new AppError("RATE_LIMITED", message, undefined, { "Retry-After": String(Math.max(1, retryAfterSeconds)) });

  /**
   * Issuance limits: per address and client, so that nobody else's requests use up the owner's
   * quota; and live messages per address, which bounds the table and a verify's candidates.
   */
  async function admitIssuance(address: Address, client: string) {
    const perClient = await issuance.hit(`siwe:${address.toLowerCase()}:${client}`);
    if (!perClient.allowed) {
      throw tooMany(`At most ${perClient.limit} sign-in messages per address per minute: sign one already issued, or retry later`, perClient.resetSeconds);
    }
    const live = await nonces.liveCount(address);
    if (live.count >= config.liveMessagesMax) {
      const wait = live.oldestExpiresAt ? Math.ceil((live.oldestExpiresAt.getTime() - Date.now()) / 1000) : config.nonceTtlSeconds;
      throw tooMany(`This address has ${live.count} unused sign-in messages: sign one already issued, or retry when one expires`, wait);
    }
  }

  // Tokens whose signature and claims checked out, by their exact text: a client sends the same token
  // with every request, and the HMAC (a WebCrypto job) is the largest part of a signed-in read's
  // sign-in cost. Only the expiry can change for the same text, so a hit checks it again; a token of
  // a signed-out session still fails on its user's session epoch (authenticate). Failures are not kept.
  const verified = new Map<string, TokenClaims>();

  /** Throws UNAUTHORIZED for anything but a valid, unexpired HS256 token of this issuer/audience. */
  async function verifyToken(token: string): Promise<TokenClaims> {
    const known = verified.get(token);
    if (known) {
      if (known.expiresAt > Math.floor(Date.now() / 1000)) return known; // as jose checks exp
      verified.delete(token);
      throw unauthorized("Token expired");
    }
    const claims = await checkToken(token);
    if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, claims);
    return claims;
  }

  async function checkToken(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, await key, {
        algorithms: ["HS256"],
        issuer: config.issuer,
        audience: config.audience,
        requiredClaims: ["sub", "exp", "iat"],
      });
      // sub is a users.id (uuid): anything else would reach the database as a bad cast (500).
      if (typeof payload.addr !== "string" || !isAddress(payload.addr, { strict: false })) throw unauthorized("Invalid token");
      if (!UUID_RE.test(payload.sub ?? "")) throw unauthorized("Invalid token");
      const sev = payload.sev ?? 0;
      if (typeof sev !== "number" || !Number.isSafeInteger(sev) || sev < 0) throw unauthorized("Invalid token");
      return { userId: payload.sub!, address: getAddress(payload.addr), sessionEpoch: sev, expiresAt: payload.exp! };
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw unauthorized("Token expired");
      throw unauthorized("Invalid token");
    }
  }

  return {
    /** `client`: who asks (the client IP), for the per-client issuance limit. */
    async createMessage(rawAddress: string, client: string): Promise<{ message: string }> {
      const address = getAddress(rawAddress);
      await admitIssuance(address, client);
      const nonce = generateSiweNonce();
      const issuedAt = new Date();
      const expiresAt = new Date(issuedAt.getTime() + config.nonceTtlSeconds * 1000);
      const message = createSiweMessage({
        address,
        chainId: config.chainId,
        domain: config.domain,
        uri: config.uri,
        nonce,
        version: "1",
        issuedAt,
        expirationTime: expiresAt,
        statement: "Sign in to the mission marketplace.",
      });
      await nonces.insert({ nonce, address: address.toLowerCase(), domain: config.domain, message, issuedAt, expiresAt });
      return { message };
    },

    async verify(rawAddress: string, signature: string): Promise<{ token: string; user: UserRow }> {
      const address = getAddress(rawAddress);
      if (!isHex(signature)) throw unauthorized("Signature is not valid");
      const live = await nonces.live(address, config.domain, config.liveMessagesMax);
      if (live.length === 0) throw unauthorized("No valid sign-in message for this address: request a new one");
      const matched = await matchingMessage(address, live, signature);
      if (!matched) throw unauthorized("Signature does not match a sign-in message of this address");
      const problem = siweProblem(
        matched.message,
        { address, domain: config.domain, uri: config.uri, chainId: config.chainId, nonce: matched.nonce },
        new Date(),
      );
      if (problem) throw unauthorized(`Sign-in message rejected: ${problem}`);
      if (!(await nonces.consume(matched.nonce))) throw unauthorized("Sign-in message already used");
      const user = await users.upsertOnSignIn(address);
      const token = await new SignJWT({ addr: address.toLowerCase(), sev: user.sessionEpoch })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(user.id)
        .setIssuer(config.issuer)
        .setAudience(config.audience)
        .setIssuedAt()
        .setJti(crypto.randomUUID())
        .setExpirationTime(`${TOKEN_TTL_SECONDS}s`)
        .sign(await key);
      return { token, user };
    },

    verifyToken,

    /**
     * The signed-in session a token stands for, as every transport checks it (HTTP and /ws): a valid
     * token of an existing user with that address, issued in the user's current session epoch.
     */
    async authenticate(token: string): Promise<{ user: UserRow; claims: TokenClaims }> {
      const claims = await verifyToken(token);
      const user = await users.findById(claims.userId);
      if (!user || user.evmAddress !== claims.address.toLowerCase()) throw unauthorized("Invalid token");
      if (claims.sessionEpoch !== user.sessionEpoch) throw unauthorized("Token revoked: sign in again");
      return { user, claims };
    },
  };
}
export type AuthService = ReturnType<typeof authService>;
