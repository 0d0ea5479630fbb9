/**
 * A raw TCP upstream for the proxy's failure and memory tests: it reads each connection's request head,
 * then hands the socket to `onRequest`, which answers (or misbehaves) with bytes of its own.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface RawUpstream {
	server: Server;
	port: number;
	url: string;
	sockets: Set<Socket>;
	/** Destroys every open connection and closes the server. */
	close(): Promise<void>;
}

export async function rawUpstream(onRequest: (socket: Socket) => Promise<void> | void): Promise<RawUpstream> {
	const sockets = new Set<Socket>();
	const server = createServer((socket) => {
		sockets.add(socket);
		socket.on('error', () => undefined);
		socket.on('close', () => sockets.delete(socket));
		let head = '';
		const onData = (data: Buffer): void => {
			head += data.toString('latin1');
			if (head.includes('\r\n\r\n')) {
				socket.off('data', onData);
				void onRequest(socket);
			}
		};
		socket.on('data', onData);
	});
	await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
	const { port } = server.address() as { port: number };
	return {
		server,
		port,
		url: `http://127.0.0.1:${port}`,
		sockets,
		close: () => {
			for (const socket of sockets) socket.destroy();
			return new Promise((closed) => server.close(() => closed()));
		},
	};
}
