/**
 * One state of the live-service features, shown everywhere (status bar, Traffic view, commands): the
 * proxy that runs and to which connection, what is replayed, the breakpoints set. Plain data with an
 * emitter; no `vscode`.
 */
import { Emitter, type Event } from '../util/emitter';
import type { Breakpoint, ProxyInfo, ReplayInfo } from './sandboxControl';

export interface Inspection {
	proxy: ProxyInfo;
	/** The connection's label (what the user picked). */
	label: string;
}

export class LiveState {
	private inspectionValue: Inspection | undefined;
	private replayValue: (ReplayInfo & { notes: string[]; files: string[] }) | undefined;
	private breakpointsValue: readonly Breakpoint[] = [];
	private heldCount = 0;
	/** Namespaces and posting paths of every upstream inspected in this window, for reading its exchanges. */
	private readonly upstreams = new Map<string, { namespace: string; postingPath: string }>();
	private readonly changed = new Emitter<void>();
	readonly onDidChange: Event<void> = this.changed.event;

	get inspection(): Inspection | undefined {
		return this.inspectionValue;
	}

	get replay(): (ReplayInfo & { notes: string[]; files: string[] }) | undefined {
		return this.replayValue;
	}

	get breakpoints(): readonly Breakpoint[] {
		return this.breakpointsValue;
	}

	get held(): number {
		return this.heldCount;
	}

	/** How an upstream's exchanges are read (its namespace and posting path), when it was inspected here. */
	upstream(label: string): { namespace: string; postingPath: string } | undefined {
		return this.upstreams.get(label);
	}

	setInspection(inspection: Inspection | undefined): void {
		this.inspectionValue = inspection;
		if (inspection) {
			this.upstreams.set(inspection.proxy.upstream, {
				namespace: inspection.proxy.namespace,
				postingPath: inspection.proxy.paths.posting,
			});
		}
		this.changed.fire();
	}

	setReplay(replay: (ReplayInfo & { notes: string[]; files: string[] }) | undefined): void {
		this.replayValue = replay;
		this.changed.fire();
	}

	setBreakpoints(breakpoints: readonly Breakpoint[], held: number): void {
		this.breakpointsValue = breakpoints;
		this.heldCount = held;
		this.changed.fire();
	}

	/** The sandbox stopped: its proxy, replay and breakpoints are gone with it. */
	clear(): void {
		this.inspectionValue = undefined;
		this.replayValue = undefined;
		this.breakpointsValue = [];
		this.heldCount = 0;
		this.changed.fire();
	}

	dispose(): void {
		this.changed.dispose();
	}
}
