/** Conversions between the playground's form state and request files. Pure. */
import { OPERATIONS, isOperationName } from '../../protocol/catalogue';
import type { RequestDocument } from '../../protocol/requestFile';
import { DEFAULT_PLAYGROUND_TIMEOUT_MS, defaultFormParams, emptyDraft } from '../../shared/playgroundForms';
import type { PlaygroundForm } from '../../shared/playgroundMessages';
import { draftToRaw, formToParams, rawToDraft } from './request';

export { DEFAULT_PLAYGROUND_TIMEOUT_MS, emptyDraft, newForm } from '../../shared/playgroundForms';

/** The request file of a form; typed values that do not parse are reported, not saved. */
export function formToDocument(form: PlaygroundForm): { document?: RequestDocument; problems: string[] } {
	if (!isOperationName(form.operation)) return { problems: [`Unknown operation ${form.operation}.`] };
	const { params, issues } = formToParams(form.operation, form.params);
	const document: RequestDocument = {
		operation: form.operation,
		binding: form.binding,
		endpoint: OPERATIONS[form.operation].endpoint,
		params,
	};
	if (form.mode === 'raw') document.raw = draftToRaw(form.raw);
	// Only type problems stop a value from being saved; rule problems (e.g. a missing filter) do not.
	const typeProblems = issues.filter((issue) => {
		const text = form.params[issue.param];
		return typeof text === 'string' && text.trim().length > 0 && params[issue.param] === undefined;
	});
	return { document, problems: typeProblems.map((issue) => issue.message) };
}

/** The form that shows a request file. */
export function documentToForm(document: RequestDocument, timeoutMs = DEFAULT_PLAYGROUND_TIMEOUT_MS): PlaygroundForm {
	const params = defaultFormParams(document.operation);
	for (const param of OPERATIONS[document.operation].params) {
		const value = document.params[param.name];
		if (param.role && value === undefined) params[param.name] = '';
		if (value === undefined) continue;
		params[param.name] = Array.isArray(value) ? [...value] : String(value);
	}
	return {
		mode: document.raw ? 'raw' : 'form',
		operation: document.operation,
		binding: document.binding,
		params,
		raw: document.raw ? rawToDraft(document.raw) : emptyDraft(document.operation),
		timeoutMs,
	};
}
