/** The account view's message: what the view shows is not the whole account, or not yet there. */

/** What the sandbox is doing between a start, stop or reset and its end: the same words everywhere. */
export const SANDBOX_TRANSITIONS: Readonly<Record<string, string>> = {
	starting: 'Starting the sandbox… The first start creates its demo data, which takes a few seconds.',
	stopping: 'Stopping the sandbox…',
	resetting: 'Resetting the sandbox: it stops and starts again with fresh demo data…',
};

/** The message for the sandbox's state (undefined for another connection) and the filter's words. */
export function viewMessage(sandboxState: string | undefined, filter: string | undefined): string {
	const parts: string[] = [];
	const transition = sandboxState === undefined ? undefined : SANDBOX_TRANSITIONS[sandboxState];
	if (transition) parts.push(transition);
	if (filter) parts.push(`${filter}. Clear Filter (in the view's toolbar) shows everything.`);
	return parts.join(' ');
}
