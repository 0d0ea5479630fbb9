/** The account view's message: what the view shows is not the whole account, or not yet there. */

/** The message for the sandbox's state (undefined for another connection) and the filter's words. */
export function viewMessage(sandboxState: string | undefined, filter: string | undefined): string {
	const parts: string[] = [];
	if (sandboxState === 'starting') {
		parts.push('Starting the sandbox… The first start creates its demo data, which takes a few seconds.');
	}
	if (filter) parts.push(`${filter}. Clear Filter (in the view's toolbar) shows everything.`);
	return parts.join(' ');
}
