#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that delays every byte by DELAY_MS in each direction, as a
link with that one-way latency would (20 ms each way: a round trip of 40 ms, a server in
another region). Bandwidth is not limited. Prints the port it listens on, then serves
until killed.

Usage: latency_proxy.py TARGET_PORT DELAY_MS"""
import asyncio, sys, time

if len(sys.argv) != 3 or sys.argv[1] == "--help":
    print(__doc__.strip())
    sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] == "--help" else 64)
target_port, delay = int(sys.argv[1]), int(sys.argv[2]) / 1000


async def pipe(reader, writer):
    """Copies reader to writer, each piece sent `delay` after it arrived, in order."""
    queue = asyncio.Queue()

    async def receive():
        while data := await reader.read(1 << 16):
            await queue.put((time.monotonic() + delay, data))
        await queue.put((time.monotonic() + delay, b""))

    async def send():
        while True:
            due, data = await queue.get()
            if (wait := due - time.monotonic()) > 0:
                await asyncio.sleep(wait)
            if not data:
                break
            writer.write(data)
            await writer.drain()
        writer.close()

    try:
        await asyncio.gather(receive(), send())
    except (ConnectionError, asyncio.CancelledError):
        writer.close()


async def handle(client_reader, client_writer):
    try:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()

asyncio.run(main())
