import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import amqp from 'amqplib';
import { Client } from 'minio';
import { MongoClient } from 'mongodb';
import nodemailer from 'nodemailer';
import { parseS3Url, startInfra, type Infra } from '../src';
import { REPO_ROOT } from '../src/paths';
import { chooseFerretBackend, dropFerretDatabase } from '../src/postgres';
import { freePort, waitUntil } from '../src/util';
import { canConnect, childProcesses, clearInfraEnv, freshDir } from './helpers';

const selftestDir = path.join(REPO_ROOT, '.data', 'infra-selftest');
const ourServers = (): string[] =>
  childProcesses(selftestDir)
    // the binaries are named by tool and version (ferretdb-v1.24.2-r2, cut to 15 characters)
    .map(([, comm]) => /^(ferretdb|minio|mailpit)(?:-|$)/.exec(comm)?.[1])
    .filter((c): c is string => c !== undefined);

describe('startInfra', () => {
  let restoreEnv: () => void;
  let dataDir: string;
  let infra: Infra | undefined;
  const lines: string[] = [];
  const log = (line: string): void => {
    lines.push(line);
  };

  beforeAll(() => {
    restoreEnv = clearInfraEnv();
    dataDir = freshDir('start-infra');
    fs.writeFileSync(path.join(dataDir, 'leftover.txt'), 'from an earlier run');
  });
  afterAll(async () => {
    await infra?.stop();
    restoreEnv();
    // the PostgreSQL database FerretDB used for this folder (make run keeps its own)
    await dropFerretDatabase(await chooseFerretBackend({ dataDir, fresh: false, log }));
  });

  it('starts FerretDB, MinIO, Mailpit, the messages stand-in and finds RabbitMQ, on free ports and fresh data', async () => {
    const t = Date.now();
    infra = await startInfra({ dataDir, fresh: true, log });
    console.log(`startInfra took ${Date.now() - t} ms:\n${lines.join('\n')}`);
    expect(fs.existsSync(path.join(dataDir, 'leftover.txt'))).toBe(false);
    expect(infra.mongoUrl).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    expect(infra.amqpUrl).toBe('amqp://guest:guest@127.0.0.1:5672');
    expect(infra.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    expect(infra.mailApiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(infra.messagesApiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(infra.env.MESSAGES_API_URL).toBe(infra.messagesApiUrl);
    expect(infra.messagesEnv).toMatchObject({
      WHATSAPP_API_URL: `${infra.messagesApiUrl}/whatsapp/v21.0`,
      SMS_API_URL: `${infra.messagesApiUrl}/sms`,
      WHATSAPP_TOKEN: expect.any(String) as unknown,
      SMS_ACCOUNT_SID: expect.stringMatching(/^AC[0-9a-f]{32}$/) as unknown,
    });
    expect(infra.s3).toMatchObject({
      endPoint: '127.0.0.1',
      useSSL: false,
      accessKey: 'furniture',
      secretKey: 'furniture-local-secret',
    });
    expect(parseS3Url(infra.env.S3_URL)).toEqual(infra.s3);
    expect(ourServers().sort()).toEqual(['ferretdb', 'mailpit', 'minio']);
  });

  it('FerretDB answers ping, insert and find', async () => {
    const client = new MongoClient(infra?.mongoUrl ?? '');
    try {
      await client.connect();
      expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
      const col = client
        .db('infra_selftest')
        .collection<{ _id: string; name: string; sizes: number[] }>('items');
      await col.insertOne({ _id: 'sofa-1', name: 'Sofa', sizes: [200, 90] });
      expect(await col.findOne({ name: 'Sofa' })).toEqual({
        _id: 'sofa-1',
        name: 'Sofa',
        sizes: [200, 90],
      });
    } finally {
      await client.close();
    }
  });

  it('MinIO stores and returns objects', async () => {
    const s3 = infra?.s3;
    if (!s3) throw new Error('infra not started');
    const client = new Client({
      endPoint: s3.endPoint,
      port: s3.port,
      useSSL: s3.useSSL,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
    });
    await client.makeBucket('selftest');
    await client.putObject('selftest', 'photos/a.txt', Buffer.from('Привіт, Möbel'), undefined, {
      'Content-Type': 'text/plain',
    });
    const stream = await client.getObject('selftest', 'photos/a.txt');
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString('utf8')).toBe('Привіт, Möbel');
  });

  it('RabbitMQ accepts connections', async () => {
    const conn = await amqp.connect(infra?.amqpUrl ?? '');
    const ch = await conn.createChannel();
    const q = await ch.assertQueue('', { exclusive: true });
    expect(q.queue).toBeTruthy();
    await conn.close();
  });

  it('Mailpit takes a mail', async () => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: Number(new URL(infra?.smtpUrl ?? '').port),
      secure: false,
    });
    await transport
      .sendMail({ from: 'a@example.org', to: 'b@example.org', subject: 'Selbsttest', text: '.' })
      .finally(() => transport.close());
    const res = await fetch(`${infra?.mailApiUrl ?? ''}/api/v1/messages`);
    const body = (await res.json()) as { messages: { Subject: string }[] };
    expect(body.messages.map((m) => m.Subject)).toEqual(['Selbsttest']);
  });

  it('the messages stand-in takes an SMS with the credentials it gave out', async () => {
    const env = infra?.messagesEnv ?? {};
    const res = await fetch(
      `${env.SMS_API_URL ?? ''}/2010-04-01/Accounts/${env.SMS_ACCOUNT_SID ?? ''}/Messages.json`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${env.SMS_ACCOUNT_SID ?? ''}:${env.SMS_AUTH_TOKEN ?? ''}`).toString('base64')}`,
        },
        body: new URLSearchParams({ To: '+4915112345678', From: env.SMS_FROM ?? '', Body: 'Test' }),
      },
    );
    expect(res.status).toBe(201);
    const list = (await (await fetch(`${infra?.messagesApiUrl ?? ''}/api/messages`)).json()) as {
      messages: Array<{ text: string }>;
    };
    expect(list.messages.map((m) => m.text)).toEqual(['Test']);
  });

  it('stop() ends every process it started and frees the ports', async () => {
    const current = infra;
    if (!current) throw new Error('infra not started');
    const ports = [
      new URL(current.mongoUrl).port,
      String(current.s3.port),
      new URL(current.smtpUrl).port,
      new URL(current.mailApiUrl).port,
      new URL(current.messagesApiUrl).port,
    ];
    const t = Date.now();
    await current.stop();
    console.log(`stop took ${Date.now() - t} ms`);
    infra = undefined;
    expect(ourServers()).toEqual([]);
    for (const port of ports) expect(await canConnect(Number(port))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'pids', 'ferretdb.pid'))).toBe(false);
    await current.stop(); // idempotent
  });

  it('keeps data between runs without `fresh`, on fixed ports', async () => {
    const ports = {
      mongo: await freePort(),
      s3: await freePort(),
      s3Console: await freePort(),
      smtp: await freePort(),
      mailHttp: await freePort(),
      messagesHttp: await freePort(),
    };
    const before = (
      JSON.parse(fs.readFileSync(path.join(dataDir, 'keys', 'messages-standin.json'), 'utf8')) as {
        whatsappToken: string;
      }
    ).whatsappToken;
    const current = await startInfra({ dataDir, ports, log });
    try {
      expect(current.mongoUrl).toBe(`mongodb://127.0.0.1:${ports.mongo}/`);
      expect(current.s3.port).toBe(ports.s3);
      expect(current.smtpUrl).toBe(`smtp://127.0.0.1:${ports.smtp}`);
      expect(current.mailApiUrl).toBe(`http://127.0.0.1:${ports.mailHttp}`);
      expect(current.messagesApiUrl).toBe(`http://127.0.0.1:${ports.messagesHttp}`);
      // the same credentials, and the captured SMS kept
      expect(current.messagesEnv.WHATSAPP_TOKEN).toBe(before);
      expect(current.messages?.standIn.messages().map((m) => m.text)).toEqual(['Test']);
      // and the captured mail (Mailpit's database in the data folder)
      const mails = (await (await fetch(`${current.mailApiUrl}/api/v1/messages`)).json()) as {
        messages: { Subject: string }[];
      };
      expect(mails.messages.map((m) => m.Subject)).toEqual(['Selbsttest']);
      // the console is enabled on a fixed port; it may open a moment after the S3 API
      await waitUntil(
        async () => {
          if (!(await canConnect(ports.s3Console))) throw new Error('closed');
        },
        { what: 'MinIO console', timeoutMs: 20000 },
      );
      const client = new MongoClient(current.mongoUrl);
      try {
        expect(await client.db('infra_selftest').collection('items').countDocuments()).toBe(1);
      } finally {
        await client.close();
      }
      const s3 = current.s3;
      const minio = new Client({
        endPoint: s3.endPoint,
        port: s3.port,
        useSSL: false,
        accessKey: s3.accessKey,
        secretKey: s3.secretKey,
      });
      expect(await minio.bucketExists('selftest')).toBe(true);
    } finally {
      await current.stop();
    }
  });

  it('uses URLs from the environment instead of starting servers', async () => {
    const first = await startInfra({ dataDir, log });
    try {
      process.env.MONGO_URL = first.mongoUrl;
      process.env.S3_URL = first.env.S3_URL;
      process.env.SMTP_URL = first.smtpUrl;
      process.env.MAIL_API_URL = first.mailApiUrl;
      // a provider configured by hand: no stand-in, nothing of it set
      process.env.SMS_ACCOUNT_SID = 'AC-real';
      process.env.MESSAGES_API_URL = first.messagesApiUrl;
      process.env.AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';
      const before = childProcesses(selftestDir).length;
      const second = await startInfra({ dataDir: path.join(dataDir, 'unused'), log });
      expect(childProcesses(selftestDir).length).toBe(before);
      expect(second.env).toEqual(first.env);
      expect(second.messages).toBeUndefined();
      expect(second.messagesEnv).toEqual({});
      await second.stop();
    } finally {
      clearInfraEnv();
      await first.stop();
    }
  });

  it('refuses a data folder whose servers belong to a running process', async () => {
    const first = await startInfra({ dataDir, log });
    try {
      await expect(startInfra({ dataDir, fresh: true, log })).rejects.toThrow(
        /ferretdb\.pid: process \d+ .* belongs to running process \d+ \(this one\)/,
      );
      const client = new MongoClient(first.mongoUrl); // the first instance was not harmed
      try {
        expect(await client.db('infra_selftest').collection('items').countDocuments()).toBe(1);
      } finally {
        await client.close();
      }
    } finally {
      await first.stop();
    }
  });

  it('fails clearly when a fixed port is taken, leaving nothing running', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const taken = typeof address === 'object' && address ? address.port : 0;
    try {
      await expect(startInfra({ dataDir, ports: { mongo: taken }, log })).rejects.toThrow(
        new RegExp(`FerretDB: port 127\\.0\\.0\\.1:${taken} is already in use`),
      );
      expect(ourServers()).toEqual([]);
    } finally {
      blocker.close();
    }
  });
});
