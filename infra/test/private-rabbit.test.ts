import amqp from 'amqplib';
import { startPrivateRabbit, type PrivateRabbit } from '../src/private-rabbit';
import { pingAmqp } from '../src/rabbit';
import { canConnect, freshDir, processesWithEnv } from './helpers';

describe('private RabbitMQ node', () => {
  let rabbit: PrivateRabbit | undefined;
  afterAll(async () => {
    await rabbit?.stop();
  });

  it('starts, keeps a persistent message across restart(), and stops', async () => {
    let t = Date.now();
    rabbit = await startPrivateRabbit({
      dataDir: freshDir('private-rabbit'),
      log: (l) => console.log(l),
    });
    const startMs = Date.now() - t;
    expect(rabbit.url).toBe(`amqp://guest:guest@127.0.0.1:${rabbit.port}`);
    expect(rabbit.port).not.toBe(5672);
    expect(processesWithEnv(`RABBITMQ_NODENAME=${rabbit.nodeName}`).length).toBeGreaterThanOrEqual(
      2,
    ); // script + VM

    const conn = await amqp.connect(rabbit.url);
    const closed = new Promise<void>((resolve) => conn.once('close', () => resolve()));
    conn.on('error', () => undefined); // the restart below kills this connection on purpose
    const ch = await conn.createConfirmChannel();
    await ch.assertQueue('chaos.durable', { durable: true });
    ch.sendToQueue('chaos.durable', Buffer.from('survives'), { persistent: true });
    await ch.waitForConfirms();

    t = Date.now();
    await rabbit.restart();
    const restartMs = Date.now() - t;
    await closed; // clients really saw the outage

    const conn2 = await amqp.connect(rabbit.url);
    const ch2 = await conn2.createChannel();
    const msg = await ch2.get('chaos.durable', { noAck: true });
    expect(msg && msg.content.toString()).toBe('survives');
    await conn2.close();

    // The shared broker was not disturbed.
    await pingAmqp('amqp://guest:guest@127.0.0.1:5672');

    t = Date.now();
    await rabbit.stop();
    const stopMs = Date.now() - t;
    console.log(`private rabbit: start ${startMs} ms, restart ${restartMs} ms, stop ${stopMs} ms`);
    expect(await canConnect(rabbit.port)).toBe(false);
    // Neither the script nor the Erlang VM (its child, which inherits the environment) is left.
    // (By this node's environment, not by name among the worker's children: jest runs other test
    // files in the same worker, and a node one of them still runs is not this test's concern.)
    expect(processesWithEnv(`RABBITMQ_NODENAME=${rabbit.nodeName}`)).toEqual([]);
    rabbit = undefined;
    // a start and a restart of an Erlang node: each up to 180 s beside the browser suites
  }, 400_000);
});
