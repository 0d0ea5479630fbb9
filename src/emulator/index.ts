/** Public surface of the emulator: the server, its options and the sandbox it serves. */
export {
	startEmulator,
	DEFAULT_MAX_REQUEST_BYTES,
	DEFAULT_REQUEST_TIMEOUT_MS,
	type AccessLogEntry,
	type ArrivedApplication,
	type CallbackEvent,
	type DeliveryEvent,
	type EmulatorEvent,
	type EmulatorOptions,
	type RunningEmulator,
} from './server';
export { parseSize, resolveSize, SANDBOX_SIZES, type SandboxSize } from './size';
export type { ClockMode, EmulatorClock } from './delivery/clock';
export type { ApplicationCallbackPayload } from './callbacks/notifier';
export { openSandbox, type DemoCredentials, type Sandbox } from './sandbox';
export type { OperationHandlers } from './domain/handlers';
export type { RequestContext } from './domain/context';
