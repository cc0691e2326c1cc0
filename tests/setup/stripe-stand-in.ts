// A local stand-in for the part of Stripe's API PickReel calls, so the real Stripe SDK and our Stripe
// provider are exercised without a network (the SDK accepts host/port/protocol).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  payment_intent: string;
  amount: number;
  currency: string;
  status: 'succeeded';
}

export interface StripeStandIn {
  port: number;
  intents: Map<string, FakeIntent>;
  /** Refunds made, one per refunded intent (Stripe refuses a second full refund). */
  refunds: FakeRefund[];
  requests: { method: string; path: string; idempotencyKey?: string; body: string }[];
  close(): Promise<void>;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const intents = new Map<string, FakeIntent>();
  const byIdempotencyKey = new Map<string, FakeIntent | FakeRefund>();
  const refunds: FakeRefund[] = [];
  const requests: StripeStandIn['requests'] = [];
  let counter = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      requests.push({ method: req.method ?? '', path, idempotencyKey, body });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${counter}` });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && path === '/v1/payment_intents') {
        if (idempotencyKey && byIdempotencyKey.has(idempotencyKey))
          return send(200, byIdempotencyKey.get(idempotencyKey));
        const form = new URLSearchParams(body);
        counter += 1;
        const id = `pi_fake_${counter}`;
        const metadata: Record<string, string> = {};
        for (const [key, value] of form) {
          const match = /^metadata\[(.+)\]$/.exec(key);
          if (match) metadata[match[1]!] = value;
        }
        const intent: FakeIntent = {
          id,
          object: 'payment_intent',
          amount: Number(form.get('amount')),
          amount_received: 0,
          currency: form.get('currency') ?? 'usd',
          status: 'requires_payment_method',
          client_secret: `${id}_secret_fake`,
          metadata,
        };
        intents.set(id, intent);
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, intent);
        return send(200, intent);
      }
      const missing = () =>
        send(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: 'No such payment_intent',
          },
        });
      const match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && match) {
        const intent = intents.get(match[1]!);
        if (!intent) return missing();
        return send(200, intent);
      }
      // As Stripe: only an intent that is not paid (nor canceled already) can be canceled.
      const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
      if (req.method === 'POST' && cancel) {
        const intent = intents.get(cancel[1]!);
        if (!intent) return missing();
        if (intent.status === 'succeeded' || intent.status === 'canceled') {
          return send(400, {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
            },
          });
        }
        intent.status = 'canceled';
        return send(200, intent);
      }
      if (req.method === 'POST' && path === '/v1/refunds') {
        if (idempotencyKey && byIdempotencyKey.has(idempotencyKey))
          return send(200, byIdempotencyKey.get(idempotencyKey));
        const form = new URLSearchParams(body);
        const intent = intents.get(form.get('payment_intent') ?? '');
        if (!intent || intent.status !== 'succeeded') {
          return send(400, {
            error: { type: 'invalid_request_error', message: 'This PaymentIntent has no successful charge.' },
          });
        }
        if (refunds.some((refund) => refund.payment_intent === intent.id)) {
          return send(400, {
            error: {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: 'Charge has already been refunded.',
            },
          });
        }
        counter += 1;
        const refund: FakeRefund = {
          id: `re_fake_${counter}`,
          object: 'refund',
          payment_intent: intent.id,
          amount: intent.amount_received,
          currency: intent.currency,
          status: 'succeeded',
        };
        refunds.push(refund);
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, refund);
        return send(200, refund);
      }
      send(404, {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${req.method}: ${path})`,
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    intents,
    refunds,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What a successful card payment does to an intent on Stripe's side (a canceled one cannot be paid). */
export function succeed(intent: FakeIntent): void {
  if (intent.status === 'canceled') throw new Error(`${intent.id} is canceled and cannot be paid`);
  intent.status = 'succeeded';
  intent.amount_received = intent.amount;
}
