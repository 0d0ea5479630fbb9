/** Fakes of the VS Code surface the extension's logic uses: scripted UI answers, in-memory settings and secrets. */
import type * as vscode from 'vscode';
import type {
	InputOptions,
	LogPort,
	PickItem,
	SecretsPort,
	SettingsPort,
	StepOptions,
	UiPort,
} from '../../src/extension/ui/port';

/** One scripted answer: a function choosing among the offered items, or text for an input box. */
export type Answer =
	| { pick: (items: PickItem<unknown>[]) => PickItem<unknown> | undefined }
	| { pickMany: (items: PickItem<unknown>[]) => PickItem<unknown>[] | undefined }
	/** Types the text into a pickTyped box, then chooses among the items it offers. */
	| { typed: string; pick: (items: PickItem<unknown>[]) => PickItem<unknown> | undefined }
	| { input: string | undefined }
	| { modal: string | undefined };

export interface UiCall {
	kind:
		| 'pick'
		| 'pickMany'
		| 'pickTyped'
		| 'input'
		| 'info'
		| 'warnModal'
		| 'error'
		| 'progress'
		| 'openExternal'
		| 'document'
		| 'copy'
		| 'status'
		| 'showLog';
	text?: string;
	options?: StepOptions | InputOptions;
	items?: PickItem<unknown>[];
	validation?: string;
}

/** A UiPort that answers from a queue and records every call. */
export class FakeUi implements UiPort {
	readonly calls: UiCall[] = [];
	readonly documents: { content: string; language: string; title: string }[] = [];
	/** Answer given to error(), e.g. 'Show details'. */
	errorAnswer?: string;
	infoAnswer?: string;

	constructor(private readonly answers: Answer[] = []) {}

	script(...answers: Answer[]): this {
		this.answers.push(...answers);
		return this;
	}

	get remaining(): number {
		return this.answers.length;
	}

	private next<K extends string>(kind: K): Extract<Answer, Record<K, unknown>> {
		const answer = this.answers.shift();
		if (!answer || !(kind in answer)) {
			throw new Error(`FakeUi: expected a scripted ${kind} answer, got ${JSON.stringify(answer)}`);
		}
		return answer as Extract<Answer, Record<K, unknown>>;
	}

	async pick<T>(items: PickItem<T>[], options: StepOptions): Promise<PickItem<T> | undefined> {
		this.calls.push({ kind: 'pick', options, items: items as PickItem<unknown>[] });
		return this.next('pick').pick(items as PickItem<unknown>[]) as PickItem<T> | undefined;
	}

	async pickMany<T>(items: PickItem<T>[], options: StepOptions): Promise<PickItem<T>[] | undefined> {
		this.calls.push({ kind: 'pickMany', options, items: items as PickItem<unknown>[] });
		return this.next('pickMany').pickMany(items as PickItem<unknown>[]) as PickItem<T>[] | undefined;
	}

	async pickTyped<T>(
		itemsFor: (typed: string) => PickItem<T>[],
		options: StepOptions,
	): Promise<PickItem<T> | undefined> {
		const answer = this.next('typed');
		const items = itemsFor(answer.typed) as PickItem<unknown>[];
		this.calls.push({ kind: 'pickTyped', options, text: answer.typed, items });
		return answer.pick(items) as PickItem<T> | undefined;
	}

	async input(options: InputOptions): Promise<string | undefined> {
		const text = this.next('input').input;
		const validation = text === undefined ? undefined : options.validate?.(text);
		this.calls.push({ kind: 'input', options, text, validation });
		if (validation) {
			throw new Error(`FakeUi: the scripted input "${text}" is invalid: ${validation}`);
		}
		return text;
	}

	async info(message: string): Promise<string | undefined> {
		this.calls.push({ kind: 'info', text: message });
		return this.infoAnswer;
	}

	async warnModal(message: string): Promise<string | undefined> {
		this.calls.push({ kind: 'warnModal', text: message });
		return this.next('modal').modal;
	}

	async error(message: string): Promise<string | undefined> {
		this.calls.push({ kind: 'error', text: message });
		return this.errorAnswer;
	}

	async withProgress<T>(title: string, _cancellable: boolean, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
		this.calls.push({ kind: 'progress', text: title });
		return task(new AbortController().signal);
	}

	async openExternal(url: string): Promise<boolean> {
		this.calls.push({ kind: 'openExternal', text: url });
		return true;
	}

	async showDocument(content: string, language: 'markdown' | 'plaintext' | 'xml', title: string): Promise<void> {
		this.calls.push({ kind: 'document', text: content });
		this.documents.push({ content, language, title });
	}

	async externalUrl(url: string): Promise<string> {
		return url;
	}

	async copyText(text: string): Promise<void> {
		this.calls.push({ kind: 'copy', text });
	}

	status(text: string): void {
		this.calls.push({ kind: 'status', text });
	}

	showLog(): void {
		this.calls.push({ kind: 'showLog' });
	}

	messages(kind: UiCall['kind']): string[] {
		return this.calls.filter((c) => c.kind === kind).map((c) => c.text ?? '');
	}
}

/** Picks the item whose value (or label) equals `wanted`. */
export function pickValue(wanted: unknown): Answer {
	return {
		pick: (items) => {
			const found = items.find((i) => i.value === wanted || i.label === wanted);
			if (!found) {
				throw new Error(`FakeUi: no item ${String(wanted)} among ${items.map((i) => i.label).join(', ')}`);
			}
			return found;
		},
	};
}

export class MemorySettings implements SettingsPort {
	readonly values = new Map<string, unknown>();
	constructor(initial: Record<string, unknown> = {}) {
		for (const [k, v] of Object.entries(initial)) this.values.set(k, v);
	}
	get<T>(key: string, fallback: T): T {
		return this.values.has(key) ? (this.values.get(key) as T) : fallback;
	}
	async update(key: string, value: unknown): Promise<void> {
		this.values.set(key, structuredClone(value));
	}
}

export class MemorySecrets implements SecretsPort {
	readonly values = new Map<string, string>();
	async get(key: string): Promise<string | undefined> {
		return this.values.get(key);
	}
	async store(key: string, value: string): Promise<void> {
		this.values.set(key, value);
	}
	async delete(key: string): Promise<void> {
		this.values.delete(key);
	}
}

/** A log that keeps its lines; typed as a LogOutputChannel for WorkbenchServices. */
export class MemoryLog implements LogPort {
	readonly lines: { level: string; message: string }[] = [];
	trace(message: string): void {
		this.lines.push({ level: 'trace', message });
	}
	debug(message: string): void {
		this.lines.push({ level: 'debug', message });
	}
	info(message: string): void {
		this.lines.push({ level: 'info', message });
	}
	warn(message: string): void {
		this.lines.push({ level: 'warn', message });
	}
	error(message: string | Error): void {
		this.lines.push({ level: 'error', message: String(message) });
	}
	text(): string {
		return this.lines.map((l) => `${l.level} ${l.message}`).join('\n');
	}
	asChannel(): vscode.LogOutputChannel {
		return this as unknown as vscode.LogOutputChannel;
	}
}
