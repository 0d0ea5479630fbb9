/**
 * The host end of one webview's messaging, free of the VS Code API so plain-Node tests drive it:
 * every inbound message is validated (anything else is logged by type and dropped), posts wait for
 * the page's `ready` (VS Code drops messages to a page that is not live: hidden without
 * retainContextWhenHidden, or still loading), replies carry the request id of the message they
 * answer, and a failing handler is answered with the panel's own failure messages.
 */
import { describeMessage, requestIdOf, type RequestId, type WithRequestId } from '../../shared/webviewProtocol';

/** Posts a reply to the message being handled (its request id is added). */
export type Reply<Out> = (message: Out) => void;

export interface ChannelLog {
	warn(message: string): void;
	error(message: string): void;
}

export interface ChannelOptions<In extends { type: string }, Out> {
	/** Names the panel in log lines. */
	name: string;
	/** The message in `value` when it is one of ours; undefined otherwise. */
	parse(value: unknown): In | undefined;
	/** Handles a valid message; `ready` included (after the channel marked the page live). */
	handle(message: In, reply: Reply<Out>): Promise<void> | void;
	/** What the webview is told when handling a message failed. */
	failure(text: string): Out[];
	/** Delivers to the page (webview.postMessage). */
	deliver(message: WithRequestId<Out>): void;
	log: ChannelLog;
	/** Most messages kept while the page is not live; the oldest are dropped. */
	maxQueued?: number;
}

const DEFAULT_MAX_QUEUED = 100;

export class WebviewChannel<In extends { type: string }, Out> {
	private live = false;
	private disposed = false;
	private readonly queue: WithRequestId<Out>[] = [];

	constructor(private readonly options: ChannelOptions<In, Out>) {}

	/** True between the page's `ready` and the next time it is hidden or re-created. */
	get isLive(): boolean {
		return this.live;
	}

	/** Posts to the page now, or when it is next ready. */
	post(message: Out): void {
		this.send(message);
	}

	/** The page went away (hidden, moved, reloading): hold messages until it posts `ready` again. */
	pageGone(): void {
		this.live = false;
	}

	dispose(): void {
		this.disposed = true;
		this.queue.length = 0;
	}

	/** Takes one raw message from the page; resolves when it was handled (failures are answered, not thrown). */
	async receive(raw: unknown): Promise<void> {
		if (this.disposed) return;
		const message = this.options.parse(raw);
		if (!message) {
			this.options.log.warn(
				`${this.options.name}: ignored an unexpected webview message (${describeMessage(raw)})`,
			);
			return;
		}
		const requestId = requestIdOf(raw);
		const reply: Reply<Out> = (out) => this.send(out, requestId);
		let work: Promise<void> | void;
		try {
			if (message.type === 'ready') this.live = true;
			// A handler posts its answer to `ready` before its first await: that goes out before
			// what was queued while the page was away, which is flushed right after.
			work = this.options.handle(message, reply);
		} catch (error) {
			work = Promise.reject(error);
		} finally {
			if (message.type === 'ready') this.flush();
		}
		try {
			await work;
		} catch (error) {
			const text = error instanceof Error ? error.message : String(error);
			this.options.log.error(`${this.options.name}: ${message.type} failed: ${text}`);
			for (const out of this.options.failure(text)) reply(out);
		}
	}

	private send(message: Out, requestId?: RequestId): void {
		if (this.disposed) return;
		const envelope = (requestId === undefined ? message : { ...message, requestId }) as WithRequestId<Out>;
		if (this.live) {
			this.options.deliver(envelope);
			return;
		}
		this.queue.push(envelope);
		const max = this.options.maxQueued ?? DEFAULT_MAX_QUEUED;
		if (this.queue.length > max) this.queue.splice(0, this.queue.length - max);
	}

	private flush(): void {
		for (const message of this.queue.splice(0)) this.options.deliver(message);
	}
}
