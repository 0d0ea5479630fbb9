/**
 * Checks parameters against the catalogue before anything is sent. The rules live in one protocol
 * module (src/protocol/rules), which the sandbox and the playground use too, so the client refuses
 * exactly what the sandbox would refuse for its form, with the same message.
 */
import type { OperationName } from '../protocol/catalogue';
import { checkParams, type ValidationIssue } from '../protocol/rules';

export type { ValidationIssue, ValidationRule } from '../protocol/rules';

/**
 * The problems of `params` for `operation`, in parameter order then rule order; empty when the call
 * may be sent. Missing, null and blank values count as not given.
 */
export function validateParams(operation: OperationName, params: Readonly<Record<string, unknown>>): ValidationIssue[] {
	return checkParams(operation, params);
}
