/**
 * The live service as the proxy's tests meet it: a sandbox behind HTTPS with a test CA (another seed,
 * loose if asked, as the live service reads what a strict sandbox refuses), and the local sandbox whose
 * proxy sits in front of it.
 */
import type { RunningEmulator } from '../../src/emulator';
import { startSandbox } from '../integration/support';
import { httpsFront, makeCertificates, type TestCertificates } from './certificates';

export interface LiveStandIn {
	certificates: TestCertificates;
	/** The stand-in's own sandbox (its journal, its demo credentials). */
	live: RunningEmulator;
	/** Its HTTPS front: `front.baseUrl` is the upstream to give the proxy, with `certificates.ca`. */
	front: Awaited<ReturnType<typeof httpsFront>>;
	/** The local sandbox, whose proxy forwards to the front. */
	sandbox: RunningEmulator;
	/** Stops the proxy, both sandboxes and the front, and removes the certificates. */
	stop(): Promise<void>;
}

export async function startLiveStandIn(options: { loose?: boolean } = {}): Promise<LiveStandIn> {
	const certificates = makeCertificates();
	const live = await startSandbox({ size: 'small', passwordCost: 1024, seed: 3, loose: options.loose });
	const front = await httpsFront(live, certificates);
	const sandbox = await startSandbox({ size: 'small', passwordCost: 1024 });
	return {
		certificates,
		live,
		front,
		sandbox,
		stop: async () => {
			await sandbox.proxy.stop();
			await sandbox.stop();
			await front.close();
			await live.stop();
			certificates.remove();
		},
	};
}
