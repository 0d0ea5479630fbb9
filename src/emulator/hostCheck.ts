/**
 * DNS rebinding protection: a web page on another site can make the browser resolve its own name to
 * 127.0.0.1 and then talk to the sandbox, but the browser still sends that name in the Host header.
 * Unless the sandbox was started with --allow-remote, only requests addressed to a loopback name
 * (localhost, *.localhost, 127.x.x.x, [::1]), to the interface it was told to bind, or to a name given
 * with --allowed-host are answered. A reverse proxy that keeps the browser's Host (code-server's
 * /proxy/<port>/ does, it sets no X-Forwarded-Host) needs its own name allowed that way. A missing
 * Host header (HTTP/1.0 tools) is accepted, since browsers always send one.
 */

/** A name as the Host header may write it, for comparison: brackets, trailing dot and case removed. */
function bareName(host: string): string {
	return host
		.replace(/^\[(.*)\]$/, '$1')
		.replace(/\.$/, '')
		.toLowerCase();
}

/** True for names and addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
	const bare = bareName(host);
	return (
		bare === 'localhost' ||
		bare.endsWith('.localhost') ||
		bare === '::1' ||
		bare === '0:0:0:0:0:0:0:1' ||
		/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) ||
		/^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)
	);
}

/** The host name of a Host header value (`name`, `name:port`, `[v6]`, `[v6]:port`). */
export function hostName(header: string): string {
	const value = header.trim();
	if (value.startsWith('[')) {
		const end = value.indexOf(']');
		return end > 0 ? value.slice(0, end + 1) : value;
	}
	const colon = value.indexOf(':');
	return colon >= 0 ? value.slice(0, colon) : value;
}

/** Which Host headers are answered. */
export interface HostPolicy {
	/** Any Host header (--allow-remote). */
	allowRemote?: boolean;
	/** Names answered besides the loopback ones: the bound interface, --allowed-host names. */
	allowedHosts?: readonly string[];
}

/** A test of Host header values for this policy. */
export function hostHeaderCheck(policy: HostPolicy): (header: string | undefined) => boolean {
	if (policy.allowRemote) return () => true;
	// An entry may carry a port (name:port, [v6]:port); a bare IPv6 address has several colons.
	const entryName = (entry: string) =>
		entry.startsWith('[') || entry.split(':').length === 2 ? hostName(entry) : entry;
	const allowed = new Set((policy.allowedHosts ?? []).map((entry) => bareName(entryName(entry.trim()))));
	return (header) => {
		if (header === undefined) return true;
		const name = hostName(header);
		return isLoopbackHost(name) || allowed.has(bareName(name));
	};
}

/** True when a request with this Host header may be answered. */
export function isAllowedHostHeader(header: string | undefined, policy: HostPolicy): boolean {
	return hostHeaderCheck(policy)(header);
}

/** The text of the 403 answer to a request addressed to another name. */
export function foreignHostMessage(header: string): string {
	return (
		`The sandbox answers only requests addressed to localhost or 127.0.0.1, not to '${hostName(header).slice(0, 100)}' ` +
		'(protection against DNS rebinding). Use http://127.0.0.1:<port>, or start the sandbox with ' +
		'--allowed-host <name> (a proxy in front of it) or --allow-remote.'
	);
}
