/**
 * The playground's per-operation memory, free of the DOM: the last form of every operation (restored
 * when you come back to it), the last exchange and comparison of every operation together with the
 * form that produced them, and whether what is on screen still answers the request being edited.
 */
import { OPERATION_NAMES, type OperationName } from '../../protocol/catalogue';
import { newForm } from '../../shared/playgroundForms';
import type { ComparisonView, PlaygroundForm, ResponseView } from '../../shared/playgroundMessages';

/** A response and the form that was sent to get it. */
export interface Exchange {
	form: PlaygroundForm;
	response: ResponseView;
}

export interface Comparison {
	form: PlaygroundForm;
	view: ComparisonView;
}

/** What the page keeps across re-creation (webview state). */
export interface SavedState {
	form: PlaygroundForm;
	forms?: Record<string, PlaygroundForm>;
	exchanges?: Record<string, Exchange>;
	comparisons?: Record<string, Comparison>;
}

/** Largest total of response text kept in the webview state; bigger responses are shown but not kept. */
export const MAX_SAVED_TEXT = 2 * 1024 * 1024;

function equalValues(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (Array.isArray(a) && Array.isArray(b)) {
		return a.length === b.length && a.every((item, i) => equalValues(item, b[i]));
	}
	if (
		typeof a === 'object' &&
		a !== null &&
		typeof b === 'object' &&
		b !== null &&
		!Array.isArray(a) &&
		!Array.isArray(b)
	) {
		const left = a as Record<string, unknown>;
		const right = b as Record<string, unknown>;
		const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
		return [...keys].every((key) => equalValues(left[key], right[key]));
	}
	return false;
}

/** True when two forms describe the same request (the timeout aside). */
export function sameRequest(a: PlaygroundForm, b: PlaygroundForm): boolean {
	if (a.operation !== b.operation || a.binding !== b.binding || a.mode !== b.mode) return false;
	return a.mode === 'raw' ? equalValues(a.raw, b.raw) : equalValues(a.params, b.params);
}

/** True when two forms ask the same of the service, whatever the binding (what a comparison answers). */
export function sameCall(a: PlaygroundForm, b: PlaygroundForm): boolean {
	return a.operation === b.operation && equalValues(a.params, b.params);
}

function responseSize(response: ResponseView): number {
	return response.bodyText.length + (response.pretty?.length ?? 0) + response.request.body.length;
}

export class Workbench {
	private forms: Record<string, PlaygroundForm>;
	private readonly exchanges: Record<string, Exchange>;
	private readonly comparisons: Record<string, Comparison>;
	private current: PlaygroundForm;

	constructor(saved?: SavedState) {
		this.current = saved?.form ?? newForm();
		this.forms = { ...saved?.forms };
		this.exchanges = { ...saved?.exchanges };
		// A comparison kept by an older version (without its kind) is not shown again.
		this.comparisons = Object.fromEntries(
			Object.entries(saved?.comparisons ?? {}).filter(([, comparison]) => comparison?.view?.kind !== undefined),
		);
	}

	get form(): PlaygroundForm {
		return this.current;
	}

	/** Replaces the form being edited (an edit, a loaded file, a history entry). */
	setForm(form: PlaygroundForm): void {
		this.current = form;
		this.forms[form.operation] = form;
	}

	/**
	 * Switches to another operation: its last form when it had one, else a fresh form that keeps the
	 * binding and the timeout. The current form is kept for when you come back.
	 */
	switchOperation(name: OperationName): PlaygroundForm {
		if (!(OPERATION_NAMES as readonly string[]).includes(name)) return this.current;
		this.forms[this.current.operation] = this.current;
		const previous = this.current;
		const next = this.forms[name] ?? { ...newForm(name), binding: previous.binding, timeoutMs: previous.timeoutMs };
		this.setForm(next);
		return next;
	}

	recordExchange(form: PlaygroundForm, response: ResponseView): void {
		this.exchanges[form.operation] = { form, response };
	}

	recordComparison(form: PlaygroundForm, view: ComparisonView): void {
		this.comparisons[form.operation] = { form, view };
	}

	/** The last exchange of the current operation, and whether it answers the request as it is now. */
	exchange(): { exchange: Exchange; current: boolean } | undefined {
		const exchange = this.exchanges[this.current.operation];
		return exchange ? { exchange, current: sameRequest(exchange.form, this.current) } : undefined;
	}

	/** The comparison of the current operation when it compared the call as it is now. */
	comparison(): Comparison | undefined {
		const comparison = this.comparisons[this.current.operation];
		return comparison && sameCall(comparison.form, this.current) ? comparison : undefined;
	}

	/** The state to keep: every form and comparison, and as many exchanges as fit (current first). */
	saved(): SavedState {
		const exchanges: Record<string, Exchange> = {};
		let budget = MAX_SAVED_TEXT;
		const order = [
			this.current.operation,
			...Object.keys(this.exchanges).filter((op) => op !== this.current.operation),
		];
		for (const operation of order) {
			const exchange = this.exchanges[operation];
			if (!exchange) continue;
			const size = responseSize(exchange.response);
			if (size > budget) continue;
			budget -= size;
			exchanges[operation] = exchange;
		}
		const comparisons: Record<string, Comparison> = {};
		for (const [operation, comparison] of Object.entries(this.comparisons)) {
			const size = comparison.view.columns.reduce(
				(sum, column) => sum + column.pretty.length + column.payload.length,
				0,
			);
			if (size > budget) continue;
			budget -= size;
			comparisons[operation] = comparison;
		}
		return { form: this.current, forms: { ...this.forms }, exchanges, comparisons };
	}
}
