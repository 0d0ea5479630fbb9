/** The part of autocannon 8's programmatic API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
	interface Options {
		url: string;
		method?: string;
		headers?: Record<string, string>;
		body?: string;
		connections?: number;
		duration?: number;
		timeout?: number;
		/** Sent in turn on every connection; each overrides the defaults above. */
		requests?: Request[];
		/** Called with each connection's client as it is made (once per connection, again when it reconnects). */
		setupClient?: (client: Client) => void;
	}
	interface Request {
		method?: string;
		path?: string;
		headers?: Record<string, string>;
		body?: string;
		/** Called before each send of this request; what it returns is sent. */
		setupRequest?: (request: Request) => Request;
	}
	interface Client {
		/** Replaces the requests this connection sends in turn. */
		setRequests(requests: Request[]): void;
	}
	interface Histogram {
		average: number;
		total: number;
		p50: number;
		p99: number;
	}
	interface Result {
		/** Seconds the run lasted. */
		duration: number;
		requests: Histogram;
		latency: Histogram;
		errors: number;
		timeouts: number;
		non2xx: number;
	}
	/** A running load: awaited, its result; meanwhile, an event per response. */
	interface Instance extends PromiseLike<Result> {
		/** Each response as it comes, with its latency in ms (fractional, unlike the result's histogram). */
		on(
			event: 'response',
			listener: (client: Client, statusCode: number, bytes: number, responseTimeMs: number) => void,
		): this;
	}
	function autocannon(options: Options): Instance;
	export default autocannon;
}
