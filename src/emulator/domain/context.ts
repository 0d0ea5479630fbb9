/** What the server tells a handler about the request it came from. */
import type { BindingName } from '../../protocol/bindings/types';

export interface RequestContext {
	/** The endpoint the request arrived at. */
	endpoint: 'posting' | 'administration';
	binding: BindingName;
	/** The emulator's own address, e.g. http://127.0.0.1:5123, used to build RedirectUrls. */
	baseUrl: string;
	/** The time of the request; every date a handler writes or compares against comes from here. */
	now: Date;
	/** Who sent it (the remote address), for limits per client; undefined when not over the network. */
	client?: string;
}
