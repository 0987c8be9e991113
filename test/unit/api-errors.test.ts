import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import { toAppError } from "../../api/routes/create-app.ts";
import { AppError, errorBody, STATUS } from "../../api/lib/errors.ts";

describe("error mapping", () => {
  it("fixes the status of every mission code", () => {
    expect(STATUS).toMatchObject({
      MISSION_NOT_FOUND: 404,
      MISSION_NOT_OPEN: 409,
      ALREADY_ACCEPTED: 409,
      NOT_POSTER: 403,
      NOT_PERFORMER: 403,
      INELIGIBLE: 403,
      INSUFFICIENT_BALANCE: 422,
      CHAIN_UNAVAILABLE: 503,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      VALIDATION_ERROR: 400,
      RATE_LIMITED: 429,
      INTERNAL_ERROR: 500,
    });
  });
  it("an AppError keeps its code and takes the status from the table", () => {
    const e = new AppError("NOT_POSTER", "only the poster");
    expect(e.status).toBe(403);
    expect(errorBody(e)).toEqual({ error: { code: "NOT_POSTER", message: "only the poster" } });
  });
  it("unknown failures reveal nothing", () => {
    const e = toAppError(new Error("password=hunter2 at db.ts:12"));
    expect(e.code).toBe("INTERNAL_ERROR");
    expect(e.status).toBe(500);
    expect(e.message).not.toMatch(/hunter2/);
  });
  it("framework HTTP errors map to spec codes", () => {
    expect(toAppError(new HTTPException(415)).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(toAppError(new HTTPException(400, { message: "Malformed JSON" })).code).toBe("VALIDATION_ERROR");
    expect(toAppError(new HTTPException(413)).code).toBe("PAYLOAD_TOO_LARGE");
  });
});
