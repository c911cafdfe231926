// Database tests: a call that must fail with an application error of one code.
import { expect } from "vitest";
import { AppError } from "../errors";

/** Awaits `promise`, expects an AppError of `code`, and returns it for further checks. */
export async function expectAppError(promise: Promise<unknown>, code: string): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}
