/**
 * The playground's fresh forms, shared by the host (request files, history) and the webview (a
 * new operation's form): credential parameters hold their `{{connection.*}}` placeholders, lists
 * start empty, the rest holds the catalogue default or ''. Pure.
 */
import { DEFAULT_ENDPOINT_PATHS, OPERATIONS, isOperationName, type OperationName } from '../protocol/catalogue';
import { CONNECTION_PLACEHOLDERS } from '../protocol/requestFiles/placeholders';
import type { PlaygroundForm, RawDraft } from './playgroundMessages';

/** Default time budget of one playground request. */
export const DEFAULT_PLAYGROUND_TIMEOUT_MS = 30_000;

/** The operation the playground starts with. */
export const DEFAULT_OPERATION: OperationName = 'GetCurrency';

/** The initial form values of an operation: credential parameters hold their placeholders. */
export function defaultFormParams(operation: OperationName): Record<string, string | string[]> {
	const params: Record<string, string | string[]> = {};
	for (const param of OPERATIONS[operation].params) {
		if (param.role) params[param.name] = CONNECTION_PLACEHOLDERS[param.role];
		else if (param.type === 'string[]') params[param.name] = [];
		else params[param.name] = param.default === undefined ? '' : String(param.default);
	}
	return params;
}

/** An empty raw draft for an operation: a POST to its endpoint. */
export function emptyDraft(operation: OperationName): RawDraft {
	return {
		method: 'POST',
		target: DEFAULT_ENDPOINT_PATHS[OPERATIONS[operation].endpoint],
		headersText: 'Content-Type: text/xml; charset=utf-8',
		body: '',
	};
}

/** The form of a fresh playground for an operation. */
export function newForm(operation: OperationName = DEFAULT_OPERATION): PlaygroundForm {
	return {
		mode: 'form',
		operation,
		binding: 'soap11',
		params: defaultFormParams(operation),
		raw: emptyDraft(operation),
		timeoutMs: DEFAULT_PLAYGROUND_TIMEOUT_MS,
	};
}

/** The form's operation when it names one of the catalogue, else the default. */
export function operationOf(form: PlaygroundForm): OperationName {
	return isOperationName(form.operation) ? form.operation : DEFAULT_OPERATION;
}
