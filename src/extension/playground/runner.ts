/**
 * Sending of the playground (form, raw, compare, WSDL) over the active connection, with history.
 * Free of the VS Code API: the panel and the editor commands use it, tests drive it with fakes.
 */
import { BINDING_NAMES, type BindingName } from '../../protocol/bindings/types';
import { isOperationName, type Endpoint } from '../../protocol/catalogue';
import type { PlaygroundForm, ResponseView } from '../../shared/playgroundMessages';
import type { WorkbenchServices } from '../services';
import { buildComparison } from './comparison';
import { secretValues, secretsToHide, targetOfClient } from './connection';
import type { PlaygroundHistory } from './history';
import {
	buildResponseView,
	encodeFormRequest,
	formToParams,
	prepareRawRequest,
	sendPrepared,
	urlPrefix,
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
		let prepared;
		if (form.mode === 'raw') {
			const raw = prepareRawRequest(form.raw, target.baseUrl, values);
			if (!raw.request) return { problems: raw.issues };
			prepared = raw.request;
		} else {
			if (!isOperationName(form.operation)) return { problems: [`Unknown operation ${form.operation}.`] };
			const { params, issues } = formToParams(form.operation, form.params);
			if (issues.length > 0) return { problems: issues.map((issue) => issue.message) };
			prepared = encodeFormRequest(form.operation, form.binding, params, target, values);
		}
		const controller = new AbortController();
		this.inFlight?.abort();
		this.inFlight = controller;
		const onAbort = (): void => controller.abort();
		signal?.addEventListener('abort', onAbort, { once: true });
		try {
			const captured = await sendPrepared(prepared, {
				signal: controller.signal,
				timeoutMs: form.timeoutMs,
				dispatcher: client.dispatcher,
			});
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
		} finally {
			signal?.removeEventListener('abort', onAbort);
			if (this.inFlight === controller) this.inFlight = undefined;
		}
	}

	/** Sends the form's operation over every binding, one after the other, and compares. */
	async compare(
		form: PlaygroundForm,
	): Promise<{ comparison?: ReturnType<typeof buildComparison>; problems: string[] }> {
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
