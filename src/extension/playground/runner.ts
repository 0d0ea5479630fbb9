/**
 * Sending of the playground (form, raw, compare, WSDL) over the active connection, with history.
 * Free of the VS Code API: the panel and the editor commands use it, tests drive it with fakes.
 */
import { BINDING_NAMES, type BindingName } from '../../protocol/bindings/types';
import { isOperationName, type Endpoint } from '../../protocol/catalogue';
import type { ConnectionValues } from '../../protocol/requestFile';
import type { ComparisonView, PlaygroundForm, ResponseView } from '../../shared/playgroundMessages';
import type { WorkbenchServices } from '../services';
import { buildComparison, buildConnectionComparison } from './comparison';
import { secretValues, secretsToHide, targetOfClient, type OtherConnection } from './connection';
import type { PlaygroundHistory } from './history';
import {
	buildResponseView,
	encodeFormRequest,
	formToParams,
	prepareRawRequest,
	sendPrepared,
	urlPrefix,
	type Target,
} from './request';

/** Sends forms and shows the outcome; shared by the panel and the editor commands. */
export class PlaygroundRunner {
	private inFlight: AbortController | undefined;

	constructor(
		private readonly services: WorkbenchServices,
		readonly history: PlaygroundHistory,
	) {}

	/** Cancels the request in flight, if any. */
	cancel(): void {
		this.inFlight?.abort();
	}

	/**
	 * Sends a form (form or raw mode) over the active connection and records it in the history.
	 * Validation problems end the call before anything is sent.
	 */
	async send(form: PlaygroundForm, signal?: AbortSignal): Promise<{ response?: ResponseView; problems: string[] }> {
		const client = await this.services.activeClient();
		const target = targetOfClient(client);
		const values = await secretValues(this.services);
		const secrets = await secretsToHide(this.services, values);
		const prepared = prepareForm(form, target, values);
		if (!prepared.request) return { problems: prepared.problems };
		const request = prepared.request;
		const captured = await this.cancellable(signal, (inFlight) =>
			sendPrepared(request, { signal: inFlight, timeoutMs: form.timeoutMs, dispatcher: client.dispatcher }),
		);
		const response = buildResponseView(captured, {
			operation: form.operation,
			binding: form.binding,
			target,
			secrets,
		});
		await this.history
			.add(form, response, values)
			.catch((error: unknown) =>
				this.services.log.warn(`Could not save the playground history: ${String(error)}`),
			);
		return { response, problems: [] };
	}

	/**
	 * Sends the form over the active connection (kept in the history) and then, the same call, over
	 * `other`; compares the two answers with what must differ between two services masked. `proceed` is
	 * asked once the call can be sent and before anything is (a write's question); false sends nothing.
	 */
	async compareWithConnection(
		form: PlaygroundForm,
		other: OtherConnection,
		proceed: () => Promise<boolean> = () => Promise.resolve(true),
	): Promise<{ comparison?: ComparisonView; problems: string[]; declined?: boolean }> {
		const prepared = prepareForm(form, other.target, other.values);
		if (!prepared.request) return { problems: prepared.problems };
		if (!(await proceed())) return { problems: [], declined: true };
		const request = prepared.request;
		const first = await this.send(form);
		if (!first.response) return { problems: first.problems };
		if (first.response.error === 'Cancelled.') return { problems: ['Cancelled.'] };
		const captured = await this.cancellable(undefined, (inFlight) =>
			sendPrepared(request, { signal: inFlight, timeoutMs: form.timeoutMs, dispatcher: other.dispatcher }),
		);
		const activeSecrets = await secretsToHide(this.services, await secretValues(this.services));
		const response = buildResponseView(captured, {
			operation: form.operation,
			binding: form.binding,
			target: other.target,
			secrets: [...other.secrets, ...activeSecrets],
		});
		const active = this.services.activeConnection();
		const activeNamespace = targetOfClient(await this.services.activeClient()).namespace;
		return {
			comparison: buildConnectionComparison(form.operation, [
				{ id: active.id, label: active.label, namespace: activeNamespace, response: first.response },
				{ id: other.info.id, label: other.info.label, namespace: other.target.namespace, response },
			]),
			problems: [],
		};
	}

	/** Runs a send that cancel() (or `signal`) aborts; one at a time. */
	private async cancellable<T>(
		signal: AbortSignal | undefined,
		run: (inFlight: AbortSignal) => Promise<T>,
	): Promise<T> {
		const controller = new AbortController();
		this.inFlight?.abort();
		this.inFlight = controller;
		const onAbort = (): void => controller.abort();
		signal?.addEventListener('abort', onAbort, { once: true });
		try {
			return await run(controller.signal);
		} finally {
			signal?.removeEventListener('abort', onAbort);
			if (this.inFlight === controller) this.inFlight = undefined;
		}
	}

	/** Sends the form's operation over every binding, one after the other, and compares. */
	async compare(form: PlaygroundForm): Promise<{ comparison?: ComparisonView; problems: string[] }> {
		const responses: [BindingName, ResponseView][] = [];
		for (const binding of BINDING_NAMES) {
			const outcome = await this.send({ ...form, mode: 'form', binding });
			if (!outcome.response) return { problems: outcome.problems };
			responses.push([binding, outcome.response]);
			if (outcome.response.error === 'Cancelled.') break;
		}
		return { comparison: buildComparison(form.operation, responses), problems: [] };
	}

	/** The WSDL of an endpoint, fetched through the active connection. */
	async fetchWsdl(endpoint: Endpoint): Promise<string> {
		const client = await this.services.activeClient();
		const target = targetOfClient(client);
		const captured = await sendPrepared(
			{
				method: 'GET',
				url: `${urlPrefix(target.baseUrl)}${target.paths[endpoint]}?WSDL`,
				headers: [],
				body: new Uint8Array(0),
			},
			// The connection's time budget (multiposting.requestTimeoutMs) and connection pool.
			{ timeoutMs: client.timeoutMs, dispatcher: client.dispatcher },
		);
		if (captured.error !== undefined || !captured.response) throw new Error(captured.error ?? 'No response.');
		const text = Buffer.from(captured.response.body).toString('utf8');
		if (captured.response.status !== 200) {
			throw new Error(`HTTP ${captured.response.status}: ${text.slice(0, 200)}`);
		}
		return text;
	}
}

/** The HTTP request of a form (form or raw mode) to a target, or the problems that stop it. */
function prepareForm(
	form: PlaygroundForm,
	target: Target,
	values: ConnectionValues,
): { request?: ReturnType<typeof encodeFormRequest>; problems: string[] } {
	if (form.mode === 'raw') {
		const raw = prepareRawRequest(form.raw, target.baseUrl, values);
		return raw.request ? { request: raw.request, problems: [] } : { problems: raw.issues };
	}
	if (!isOperationName(form.operation)) return { problems: [`Unknown operation ${form.operation}.`] };
	const { params, issues } = formToParams(form.operation, form.params);
	if (issues.length > 0) return { problems: issues.map((issue) => issue.message) };
	return { request: encodeFormRequest(form.operation, form.binding, params, target, values), problems: [] };
}
