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

/** A Stripe Billing subscription as the stand-in keeps it (the fields PickReel reads). */
export interface FakeSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  start_date: number;
  trial_end: number | null;
  metadata: Record<string, string>;
  items: {
    object: 'list';
    data: { id: string; price: { id: string }; current_period_start: number; current_period_end: number }[];
  };
  latest_invoice: string;
  pending_setup_intent: string | null;
}

export interface StripeStandIn {
  port: number;
  /** Stripe Billing's objects, by id (products, prices, customers, subscriptions). */
  billing: {
    products: Map<string, { id: string; name: string; metadata: Record<string, string> }>;
    prices: Map<string, Record<string, unknown> & { id: string; active: boolean }>;
    customers: Map<string, { id: string; metadata: Record<string, string> }>;
    subscriptions: Map<string, FakeSubscription>;
  };
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
  const billing: StripeStandIn['billing'] = {
    products: new Map(),
    prices: new Map(),
    customers: new Map(),
    subscriptions: new Map(),
  };
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
      const handled = handleBilling(req.method ?? '', path, body, idempotencyKey);
      if (handled) return send(handled[0], handled[1]);
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
  // Stripe Billing's endpoints PickReel calls, idempotent by key as Stripe's are.
  function handleBilling(
    method: string,
    path: string,
    body: string,
    key: string | undefined,
  ): [number, unknown] | undefined {
    const form = new URLSearchParams(body);
    const metadata = metadataOf(form);
    const once = (make: () => unknown): [number, unknown] => {
      if (key && byIdempotencyKey.has(key)) return [200, byIdempotencyKey.get(key)];
      counter += 1;
      const made = make();
      if (key) byIdempotencyKey.set(key, made as FakeIntent);
      return [200, made];
    };
    const notFound = (what: string): [number, unknown] => [
      404,
      { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } },
    ];
    const now = Math.floor(Date.now() / 1000);
    if (method === 'POST' && path === '/v1/products')
      return once(() => {
        const product = {
          id: `prod_fake_${counter}`,
          object: 'product',
          name: form.get('name') ?? '',
          metadata,
        };
        billing.products.set(product.id, product);
        return product;
      });
    if (method === 'POST' && path === '/v1/prices')
      return once(() => {
        const price = {
          id: `price_fake_${counter}`,
          object: 'price',
          active: true,
          product: form.get('product'),
          unit_amount: Number(form.get('unit_amount')),
          currency: form.get('currency'),
          recurring: {
            interval: form.get('recurring[interval]'),
            interval_count: Number(form.get('recurring[interval_count]') ?? 1),
          },
          metadata,
        };
        billing.prices.set(price.id, price);
        return price;
      });
    const priceMatch = /^\/v1\/prices\/([^/]+)$/.exec(path);
    if (method === 'POST' && priceMatch) {
      const price = billing.prices.get(priceMatch[1]!);
      if (!price) return notFound('price');
      if (form.has('active')) price.active = form.get('active') === 'true';
      return [200, price];
    }
    if (method === 'POST' && path === '/v1/customers')
      return once(() => {
        const customer = { id: `cus_fake_${counter}`, object: 'customer', metadata };
        billing.customers.set(customer.id, customer);
        return customer;
      });
    if (method === 'POST' && path === '/v1/subscriptions')
      return once(() => {
        const price = billing.prices.get(form.get('items[0][price]') ?? '');
        const trialDays = Number(form.get('trial_period_days') ?? 0);
        const id = `sub_fake_${counter}`;
        const periodEnd = now + (trialDays > 0 ? trialDays * 86_400 : 30 * 86_400);
        const subscription: FakeSubscription = {
          id,
          object: 'subscription',
          customer: form.get('customer') ?? '',
          // As Stripe with default_incomplete: a trial starts at once, a paid start waits for its payment.
          status: trialDays > 0 ? 'trialing' : 'incomplete',
          cancel_at_period_end: false,
          start_date: now,
          trial_end: trialDays > 0 ? periodEnd : null,
          metadata,
          items: {
            object: 'list',
            data: [
              {
                id: `si_fake_${counter}`,
                price: { id: price?.id ?? '' },
                current_period_start: now,
                current_period_end: periodEnd,
              },
            ],
          },
          latest_invoice: `in_fake_${counter}`,
          pending_setup_intent: trialDays > 0 ? `seti_fake_${counter}` : null,
        };
        billing.subscriptions.set(id, subscription);
        return {
          ...subscription,
          latest_invoice: {
            id: subscription.latest_invoice,
            object: 'invoice',
            amount_due: trialDays > 0 ? 0 : (price?.unit_amount ?? 0),
            confirmation_secret:
              trialDays > 0
                ? null
                : { client_secret: `pi_fake_${counter}_secret_fake`, type: 'payment_intent' },
          },
          pending_setup_intent:
            trialDays > 0
              ? {
                  id: subscription.pending_setup_intent,
                  object: 'setup_intent',
                  client_secret: `seti_fake_${counter}_secret_fake`,
                }
              : null,
        };
      });
    const subMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subMatch) {
      const subscription = billing.subscriptions.get(subMatch[1]!);
      if (!subscription) return notFound('subscription');
      if (method === 'GET') return [200, subscription];
      if (method === 'POST') {
        if (form.has('cancel_at_period_end'))
          subscription.cancel_at_period_end = form.get('cancel_at_period_end') === 'true';
        return [200, subscription];
      }
      if (method === 'DELETE') {
        subscription.status = 'canceled';
        return [200, subscription];
      }
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = form.get('customer') ?? '';
      if (!billing.customers.has(customer)) return notFound('customer');
      counter += 1;
      return [
        200,
        {
          id: `bps_fake_${counter}`,
          object: 'billing_portal.session',
          customer,
          return_url: form.get('return_url'),
          url: `https://billing.stripe.test/p/session/bps_fake_${counter}`,
        },
      ];
    }
    return undefined;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    intents,
    refunds,
    billing,
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

function metadataOf(form: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of form) {
    const match = /^metadata\[(.+)\]$/.exec(key);
    if (match) metadata[match[1]!] = value;
  }
  return metadata;
}
