// The baseline of the app-runtime benchmark: an empty Node process with an IPC channel, which says it is up.
process.send?.('up');
process.on('disconnect', () => process.exit(0));
setInterval(() => {}, 1 << 30);
