// One error type for the whole API. The HTTP status of every code lives in STATUS, nowhere else.

export const STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_SIGNATURE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_POSTER: 403,
  NOT_PERFORMER: 403,
  INELIGIBLE: 403,
  NOT_FOUND: 404,
  MISSION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  MISSION_NOT_OPEN: 409,
  ALREADY_ACCEPTED: 409,
  INVALID_STATE: 409,
  ALREADY_RATED: 409,
  SOLANA_ADDRESS_IN_USE: 409,
  TERMS_CHANGED: 409,
  // Settlement offers: the offer echoed is not the current one; there is no offer to accept or withdraw.
  OFFER_CHANGED: 409,
  NO_OFFER: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INSUFFICIENT_BALANCE: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  CHAIN_UNAVAILABLE: 503,
  INDEXER_UNAVAILABLE: 503,
  DATABASE_UNAVAILABLE: 503,
  // Guilds (docs/community-notes.md)
  GUILD_NOT_FOUND: 404,
  ALREADY_MEMBER: 409,
  NOT_MEMBER: 409,
  GUILD_NAME_TAKEN: 409,
  BUILDER_SCORE_UNAVAILABLE: 503,
  // Disputes (docs/disputes-notes.md)
  DISPUTE_NOT_FOUND: 404,
  INVALID_DISPUTE_STATE: 409,
  DEADLINE_NOT_REACHED: 409,
  DEADLINE_PASSED: 409,
  NOT_RESOLVER: 403,
  NOT_PARTY: 403,
  NOT_APPEALS_RESOLVER: 403,
  // Relayer: a mined tx that reverted without a known reason; a tx that was never mined.
  TX_REVERTED: 409,
  TX_DROPPED: 503,
  // Relayer on a real network: the fee is above RELAYER_MAX_FEE_GWEI; no funded key is left.
  FEE_CAP_EXCEEDED: 503,
  RELAYER_UNFUNDED: 503,
  // Wallet set-up: a write the wallet has not authorised the service for; set-up signatures.
  SETUP_REQUIRED: 403,
  SIGNATURE_EXPIRED: 400,
  SIGNATURE_REPLAYED: 409,
  // Referrals and governance (docs/decisions.md "Governance and referrals").
  ALREADY_REFERRED: 409,
  PROPOSAL_NOT_FOUND: 404,
  PROPOSAL_CLOSED: 409,
} as const;

export type ErrorCode = keyof typeof STATUS;
export type ErrorStatus = (typeof STATUS)[ErrorCode];

export interface FieldIssue {
  field: string;
  reason: string;
}

export class AppError extends Error {
  readonly status: ErrorStatus;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
    this.status = STATUS[code];
  }
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: FieldIssue[] };
}

export function errorBody(err: AppError): ErrorBody {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.details ? { details: err.details } : {}),
    },
  };
}

export const validationError = (details: FieldIssue[]) =>
  new AppError(
    "VALIDATION_ERROR",
    "Invalid request: " + details.map((d) => `${d.field}: ${d.reason}`).join("; "),
    details,
  );

/** Zod issues -> field/reason pairs; `where` prefixes the location (body, query, path). */
export function zodIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  where?: string,
): FieldIssue[] {
  return issues.map((i) => {
    const path = i.path.map(String).join(".");
    return { field: path || where || "body", reason: i.message };
  });
}
