import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { GRADE_FIRST_DEFAULT } from '@gradewise/shared/contracts/review';
import { MAX_MONTHLY_BUDGET, MAX_PRICE_PER_MILLION, toMicros } from '@gradewise/shared/contracts/ai-cost';
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB, MAX_PGLITE_SHARED_BUFFERS_MB } from './db/pglite/memory.ts';

/**
 * Environment, validated once at boot. A bad value stops the process with a sentence that names
 * the variable, never with a stack trace from deep inside a library.
 */
/** A price per million tokens: a plain number of the currency, 0 to 1000 (the dearest models cost well under 200). */
const Price = z.coerce
  .number({ message: 'must be a number (a price per million tokens, e.g. 0.15)' })
  .min(0, 'must not be negative')
  .max(MAX_PRICE_PER_MILLION, `must be at most ${MAX_PRICE_PER_MILLION} per million tokens`);

/** A monthly budget in the currency: 0 to 1,000,000. */
const Budget = z.coerce
  .number({ message: 'must be a number (an amount of money per month, e.g. 50)' })
  .min(0, 'must not be negative')
  .max(MAX_MONTHLY_BUDGET, `must be at most ${MAX_MONTHLY_BUDGET}`);

const Duration = z
  .string()
  .regex(/^\d+\s*[smhd]?$/, 'use a number of seconds or a number followed by s, m, h or d (e.g. 7d)')
  .transform(parseDurationSeconds);

/**
 * TRUST_PROXY, in the forms Fastify's `trustProxy` takes: whose `X-Forwarded-For` names the client
 * (login throttle, per-address limits). `false` (the default): nobody's, the connection's address
 * is the client; a whole number: that many proxies in front of the server; a comma-separated list
 * of the proxies' addresses or CIDR ranges (`loopback`, `linklocal`, `uniquelocal` allowed); `true`:
 * every hop (only when nothing but the proxy can reach the server).
 */
const TrustProxy = z
  .string()
  .trim()
  .transform((raw, ctx): boolean | number | string[] => {
    if (raw === 'false') return false;
    if (raw === 'true') return true;
    if (/^\d+$/.test(raw)) return Number(raw);
    const entries = raw.split(',').map((entry) => entry.trim());
    const wrong = entries.filter((entry) => !isProxyAddress(entry));
    if (wrong.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be false, true, a number of proxies, or proxy addresses or CIDR ranges separated by commas (not ${wrong.map((entry) => JSON.stringify(entry)).join(', ')})`,
      });
      return z.NEVER;
    }
    return entries;
  });

const PROXY_ADDRESS_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDRESS_NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** pdf.js and ordinary documents fit in well under half of this (extraction-pool.test.ts reads them in 256 MB). */
export const DEFAULT_EXTRACTION_MEMORY_MB = 512;

/**
 * The repository's root folder (this file is apps/server/src/config.ts, or apps/server/dist/config.js
 * once compiled). A relative DATA_DIR is taken from here, not from the current directory, because
 * `npm start` runs the server from apps/server while `npm run demo` runs it from the root: both must
 * open the one `./data` the README names.
 */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const ConfigSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    /** Relative paths are taken from the repository root (REPO_ROOT), whatever the current directory. */
    DATA_DIR: z.string().min(1).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    /** Where the per-client request limits count when set (services/request-limits.ts, decision 0089). */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional(),
    TOKEN_TTL: Duration.default(7 * 24 * 3600),
    TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    AI_PROVIDER: z.enum(['builtin', 'openai', 'anthropic', 'openai-compatible']).default('builtin'),
    AI_MODEL: z.string().min(1).optional(),
    AI_BASE_URL: z.url().optional(),
    OPENAI_API_KEY: z.string().min(1).optional(),
    ANTHROPIC_API_KEY: z.string().min(1).optional(),
    AI_API_KEY: z.string().min(1).optional(),
    /** One request to the provider. */
    AI_TIMEOUT_MS: z.coerce.number().int().min(1000).default(40_000),
    /**
     * One grading or rubric call, every try, backoff wait and the repair included. The default fits
     * the grading screen's "up to 90 seconds" with room for reading the PDF.
     */
    AI_TOTAL_TIMEOUT_MS: z.coerce.number().int().min(1000).default(80_000),
    AI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
    /** Whether the model reads page images (handwriting); unset = the provider's default (see ai/provider/settings.ts). */
    AI_VISION: z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .transform((value) => value === 'true')
      .optional(),
    // ---- Providers as a list, and their prices (docs/decisions/0073-ai-providers-per-course-and-cost.md)
    /** Price of the AI_PROVIDER entry, per million input (prompt) tokens, in AI_CURRENCY. */
    AI_PRICE_INPUT_PER_MILLION: Price.optional(),
    /** Price of the AI_PROVIDER entry, per million output (answer) tokens, in AI_CURRENCY. */
    AI_PRICE_OUTPUT_PER_MILLION: Price.optional(),
    /** More providers a course owner may choose from: a JSON array, see README "AI providers". */
    AI_PROVIDERS: z.string().min(2).optional(),
    /** The id of the provider a course grades with until its owner picks one (default: AI_PROVIDER's entry). */
    AI_DEFAULT_PROVIDER: z.string().min(1).optional(),
    /** The currency of every price and budget (a 3-letter ISO code; shown beside amounts). */
    AI_CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code such as USD or EUR')
      .default('USD'),
    /** What one instructor's courses may spend on AI providers per calendar month (UTC), in AI_CURRENCY; unset: no cap. */
    AI_INSTRUCTOR_MONTHLY_BUDGET: Budget.optional(),
    GRADING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    /** k of "grade these first": own grades per question before the queue is most doubtful first; 0 turns it off. */
    GRADE_FIRST_COUNT: z.coerce.number().int().min(0).max(50).default(GRADE_FIRST_DEFAULT),
    /** Threads that read PDFs (pdf.js, OCR) off the main thread; default: one per spare core, at most 4. */
    EXTRACTION_THREADS: z.coerce.number().int().min(1).max(32).default(defaultExtractionThreads),
    /** Heap limit of each PDF-reading thread, in MB: a file that needs more is refused (and stored as a file fault). */
    EXTRACTION_MEMORY_MB: z.coerce.number().int().min(128).max(16_384).default(DEFAULT_EXTRACTION_MEMORY_MB),
    /**
     * A PDF-reading thread with no file for this long ends, and its memory (pdf.js, OCR: about
     * 65 MB) returns to the system; the next file starts a new one (a second's wait). 0: threads stay.
     */
    EXTRACTION_IDLE_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
    /** How long reading one PDF may take; a file that runs over is refused (and stored as a file fault). */
    EXTRACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
    /** 'in-process' (default): `npm start` also runs job workers; 'off': an API-only process on PostgreSQL. */
    JOB_WORKERS: z.enum(['in-process', 'off'], { message: 'must be in-process or off' }).default('in-process'),
    /**
     * SIGTERM: how long a process may take to stop (requests in flight finish, running jobs finish or
     * are handed back); past it the process exits anyway (shutdown.ts, decision 0081).
     */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(20_000),
    AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
    /** Behind a reverse proxy: whose X-Forwarded-For names the client (see TrustProxy above). */
    TRUST_PROXY: TrustProxy.default(false),
    // ---- AI spend (services/ai-spend.ts, docs/decisions/0015-ai-spend-and-active-pdfs.md)
    /** Interactive grade, regrade, generate-rubric and rubric-trial calls one user may start per minute, any grader. */
    AI_USER_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
    /** Calls to an external AI provider per course, per clock hour and per UTC day (sized for 300 students). */
    AI_COURSE_CALLS_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(2_000),
    AI_COURSE_CALLS_PER_DAY: z.coerce.number().int().min(1).max(10_000_000).default(6_000),
    /** Calls to an external AI provider for all the courses of one instructor, per clock hour and per UTC day. */
    AI_INSTRUCTOR_CALLS_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(3_000),
    AI_INSTRUCTOR_CALLS_PER_DAY: z.coerce.number().int().min(1).max(10_000_000).default(12_000),
    /**
     * Outgoing mail (smtp://user:pass@host:587, smtps://… for TLS from the start). Unset: no email
     * at all, and the instructor confirms invited registrants instead (see README, "Email").
     */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must look like smtp://user:password@host:587 or smtps://host:465')
      .optional(),
    /** The sender of the emails, e.g. "Gradewise <grading@school.edu>". */
    MAIL_FROM: z.string().min(3).max(320).optional(),
    /**
     * The address people open Gradewise at (https://grading.school.edu), for links in emails. Never
     * taken from a request's Host header, which a caller chooses.
     */
    PUBLIC_URL: z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// address' }).optional(),
    // ---- S3-compatible file storage (storage/s3-storage.ts, decision 0071); unset: files on local disk
    /** The bucket; setting it moves new files to S3 (local disk stays the default). */
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be a bucket name (3-63 lowercase letters, digits, dots, hyphens)',
      )
      .optional(),
    /** The storage server (MinIO, Garage, Ceph: http://host:9000); unset: AWS S3 of S3_REGION. */
    S3_ENDPOINT: z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// address' }).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Bucket in the path (http://host/bucket/key), as most self-hosted servers need; default: on with S3_ENDPOINT. */
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .transform((value) => value === 'true')
      .optional(),
    MAX_UPLOAD_MB: z.coerce.number().min(1).max(200).default(20),
    /** Versions one student may submit for one question (every version is kept). */
    MAX_SUBMISSION_VERSIONS: z.coerce.number().int().min(1).max(10_000).default(20),
    /** A log line per request ("incoming request" / "request completed") at info level; off by default (it costs ~4% under load). */
    LOG_REQUESTS: z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .default('false')
      .transform((value) => value === 'true'),
    /**
     * PostgreSQL's page cache in the embedded database, in MB (db/pglite/memory.ts): all of it is
     * resident from the start, so it is most of an idle server's memory.
     */
    PGLITE_SHARED_BUFFERS_MB: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_PGLITE_SHARED_BUFFERS_MB)
      .default(DEFAULT_PGLITE_SHARED_BUFFERS_MB),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    NODE_ENV: z.string().default('production'),
  })
  .superRefine((env, ctx) => {
    if (env.SMTP_URL && !env.MAIL_FROM) {
      ctx.addIssue({ code: 'custom', path: ['MAIL_FROM'], message: 'is required with SMTP_URL (the sender address)' });
    }
    if (env.SMTP_URL && !env.PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'is required with SMTP_URL (the address links in emails point to, e.g. https://grading.school.edu)',
      });
    }
    if (env.JOB_WORKERS === 'off' && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['JOB_WORKERS'],
        message:
          'can be off only with DATABASE_URL (worker processes need a shared PostgreSQL); the embedded database runs its workers in-process',
      });
    }
    for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const) {
      if (env[name] !== undefined && !env.S3_BUCKET) {
        ctx.addIssue({
          code: 'custom',
          path: ['S3_BUCKET'],
          message: `is required with ${name} (the bucket files go to)`,
        });
        break;
      }
    }
    if (env.S3_BUCKET && Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      const missing = env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'is required with the other S3 key (set both, or neither to use the instance role)',
      });
    }
    if (env.AI_PROVIDER === 'openai' && !env.OPENAI_API_KEY && !env.AI_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['OPENAI_API_KEY'], message: 'is required when AI_PROVIDER=openai' });
    }
    if (env.AI_PROVIDER === 'anthropic' && !env.ANTHROPIC_API_KEY && !env.AI_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['ANTHROPIC_API_KEY'], message: 'is required when AI_PROVIDER=anthropic' });
    }
    if (env.AI_PROVIDER === 'openai-compatible' && !env.AI_BASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['AI_BASE_URL'],
        message: 'is required when AI_PROVIDER=openai-compatible (e.g. http://localhost:11434/v1 for Ollama)',
      });
    }
    if (env.AI_PROVIDER === 'openai-compatible' && !env.AI_MODEL) {
      ctx.addIssue({
        code: 'custom',
        path: ['AI_MODEL'],
        message: 'is required when AI_PROVIDER=openai-compatible (the model name your server serves)',
      });
    }
  });

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof ConfigSchema>, providers: ReturnType<typeof readProviderList>) {
  const dataDir = path.resolve(REPO_ROOT, env.DATA_DIR ?? 'data');
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir,
    /** Whether DATA_DIR was left unset (only then may boot move a data directory left by an older version). */
    dataDirIsDefault: env.DATA_DIR === undefined,
    filesDir: path.join(dataDir, 'files'),
    /** Where uploads wait, in temporary files, while their request runs (http/multipart.ts, decision 0082). */
    incomingDir: path.join(dataDir, 'incoming'),
    databaseUrl: env.DATABASE_URL,
    tokenTtlSeconds: env.TOKEN_TTL,
    tokenSecret: env.TOKEN_SECRET,
    /** The address people reach Gradewise at (PUBLIC_URL, no trailing slash); the LTI tool's URLs are built on it. */
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, ''),
    /** The provider a course grades with until its owner picks another (one entry of aiProviders). */
    ai: providers.defaultProvider,
    /** Every provider a course owner may choose from; the built-in grader is always the first. */
    aiProviders: providers.list,
    aiCurrency: env.AI_CURRENCY,
    gradingConcurrency: env.GRADING_CONCURRENCY,
    gradeFirstCount: env.GRADE_FIRST_COUNT,
    extractionThreads: env.EXTRACTION_THREADS,
    extractionMemoryMb: env.EXTRACTION_MEMORY_MB,
    extractionTimeoutMs: env.EXTRACTION_TIMEOUT_MS,
    /** undefined: threads stay (EXTRACTION_IDLE_MS=0). */
    extractionIdleMs: env.EXTRACTION_IDLE_MS === 0 ? undefined : env.EXTRACTION_IDLE_MS,
    /** Whether `main.ts` runs job workers beside HTTP (worker.ts always does). */
    runsJobWorkers: env.JOB_WORKERS === 'in-process',
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    /** Login and register attempts per client address per minute. */
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT,
    /** Set: the request limits count in this Redis instead of the database (decision 0089). */
    redisUrl: env.REDIS_URL,
    /** Fastify's trustProxy: which proxies' X-Forwarded-For gives the client's address (request.ip). */
    trustProxy: env.TRUST_PROXY,
    /** AI spend limits (services/ai-spend.ts). */
    aiSpend: {
      userCallsPerMinute: env.AI_USER_CALLS_PER_MINUTE,
      courseCallsPerHour: env.AI_COURSE_CALLS_PER_HOUR,
      courseCallsPerDay: env.AI_COURSE_CALLS_PER_DAY,
      instructorCallsPerHour: env.AI_INSTRUCTOR_CALLS_PER_HOUR,
      instructorCallsPerDay: env.AI_INSTRUCTOR_CALLS_PER_DAY,
      /** Millionths of AI_CURRENCY; undefined: no cap. */
      instructorMonthlyBudgetMicros:
        env.AI_INSTRUCTOR_MONTHLY_BUDGET === undefined ? undefined : toMicros(env.AI_INSTRUCTOR_MONTHLY_BUDGET),
    },
    /** Outgoing email; undefined when SMTP is not configured (the embedded default). */
    mail:
      env.SMTP_URL && env.MAIL_FROM && env.PUBLIC_URL
        ? { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, publicUrl: env.PUBLIC_URL.replace(/\/+$/, '') }
        : undefined,
    /** S3-compatible file storage; undefined: files on local disk under DATA_DIR/files. */
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
          forcePathStyle: env.S3_FORCE_PATH_STYLE ?? env.S3_ENDPOINT !== undefined,
        }
      : undefined,
    maxUploadBytes: Math.round(env.MAX_UPLOAD_MB * 1024 * 1024),
    maxSubmissionVersions: env.MAX_SUBMISSION_VERSIONS,
    logLevel: env.LOG_LEVEL,
    logRequests: env.LOG_REQUESTS,
    pgliteSharedBuffersMb: env.PGLITE_SHARED_BUFFERS_MB,
    isProduction: env.NODE_ENV === 'production',
  };
}

// ---- Providers as a list ------------------------------------------------------------------------

export type ProviderKind = 'builtin' | 'openai' | 'anthropic' | 'openai-compatible';

/** One provider a course may grade with: how to call it, what it costs, and where answers go. */
export interface AiProviderConfig {
  /** Chosen by the operator; what a course stores ("builtin" is the built-in grader). */
  id: string;
  /** What instructors see in the course's AI settings. */
  label: string;
  provider: ProviderKind;
  model: string | undefined;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  timeoutMs: number;
  totalTimeoutMs: number;
  maxRetries: number;
  vision: boolean | undefined;
  /** Price per million input and output tokens, in AI_CURRENCY. */
  inputPricePerMillion: number;
  outputPricePerMillion: number;
  /** True when answers never leave this server (the built-in grader, or a local endpoint). */
  onServer: boolean;
}

const PROVIDER_ID = /^[a-z0-9][a-z0-9._-]{0,39}$/;

const ProviderEntry = z.strictObject({
  id: z.string().regex(PROVIDER_ID, 'must be 1-40 lower-case letters, digits, dots, dashes or underscores'),
  label: z.string().min(1).max(80).optional(),
  provider: z.enum(['openai', 'anthropic', 'openai-compatible'], {
    message: 'must be openai, anthropic or openai-compatible',
  }),
  model: z.string().min(1).optional(),
  baseUrl: z.url({ message: 'must be a URL such as http://localhost:11434/v1' }).optional(),
  /** The key itself, or (better) the name of the variable that holds it. */
  apiKey: z.string().min(1).optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/, 'must be the name of an environment variable')
    .optional(),
  vision: z.boolean({ message: 'must be true or false' }).optional(),
  inputPricePerMillion: z
    .number({ message: 'must be a number (a price per million input tokens, e.g. 0.15)' })
    .min(0, 'must not be negative')
    .max(MAX_PRICE_PER_MILLION, `must be at most ${MAX_PRICE_PER_MILLION} per million tokens`),
  outputPricePerMillion: z
    .number({ message: 'must be a number (a price per million output tokens, e.g. 0.6)' })
    .min(0, 'must not be negative')
    .max(MAX_PRICE_PER_MILLION, `must be at most ${MAX_PRICE_PER_MILLION} per million tokens`),
  onServer: z.boolean({ message: 'must be true or false' }).optional(),
});

type ProviderEnv = Pick<
  z.infer<typeof ConfigSchema>,
  | 'AI_PROVIDER'
  | 'AI_MODEL'
  | 'AI_BASE_URL'
  | 'AI_API_KEY'
  | 'OPENAI_API_KEY'
  | 'ANTHROPIC_API_KEY'
  | 'AI_TIMEOUT_MS'
  | 'AI_TOTAL_TIMEOUT_MS'
  | 'AI_MAX_RETRIES'
  | 'AI_VISION'
  | 'AI_PRICE_INPUT_PER_MILLION'
  | 'AI_PRICE_OUTPUT_PER_MILLION'
  | 'AI_PROVIDERS'
  | 'AI_DEFAULT_PROVIDER'
> & { readonly [name: string]: unknown };

/**
 * The providers of this server: the built-in grader always, the single-provider variables
 * (AI_PROVIDER, AI_MODEL, ...) as one entry named after AI_PROVIDER, then each entry of AI_PROVIDERS.
 * Problems come back as issues naming the variable and the entry's field, for the boot message.
 */
function readProviderList(env: ProviderEnv): {
  list: AiProviderConfig[];
  defaultProvider: AiProviderConfig;
  issues: { path: string; message: string }[];
} {
  const issues: { path: string; message: string }[] = [];
  const common = {
    timeoutMs: env.AI_TIMEOUT_MS,
    totalTimeoutMs: env.AI_TOTAL_TIMEOUT_MS,
    maxRetries: env.AI_MAX_RETRIES,
  };
  const list: AiProviderConfig[] = [
    {
      id: 'builtin',
      label: 'Built-in grader',
      provider: 'builtin',
      model: undefined,
      baseUrl: undefined,
      apiKey: undefined,
      vision: false,
      inputPricePerMillion: 0,
      outputPricePerMillion: 0,
      onServer: true,
      ...common,
    },
  ];
  if (env.AI_PROVIDER !== 'builtin') {
    const kind = env.AI_PROVIDER;
    list.push({
      id: kind,
      label: `${kind}${env.AI_MODEL ? ` (${env.AI_MODEL})` : ''}`,
      provider: kind,
      model: env.AI_MODEL,
      baseUrl: env.AI_BASE_URL,
      apiKey: env.AI_API_KEY ?? (kind === 'anthropic' ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY),
      vision: env.AI_VISION,
      inputPricePerMillion: env.AI_PRICE_INPUT_PER_MILLION ?? 0,
      outputPricePerMillion: env.AI_PRICE_OUTPUT_PER_MILLION ?? 0,
      onServer: kind === 'openai-compatible' && isLocalAddress(env.AI_BASE_URL),
      ...common,
    });
  }
  if (env.AI_PROVIDERS !== undefined) {
    let entries: unknown;
    try {
      entries = JSON.parse(env.AI_PROVIDERS);
    } catch {
      issues.push({ path: 'AI_PROVIDERS', message: 'must be a JSON array of providers (see README, "AI providers")' });
    }
    if (entries !== undefined && !Array.isArray(entries)) {
      issues.push({ path: 'AI_PROVIDERS', message: 'must be a JSON array of providers (see README, "AI providers")' });
    } else if (Array.isArray(entries)) {
      entries.forEach((raw, index) => {
        const at = `AI_PROVIDERS[${index}]`;
        const parsed = ProviderEntry.safeParse(raw);
        if (!parsed.success) {
          for (const issue of parsed.error.issues) {
            issues.push({ path: [at, ...issue.path].join('.'), message: issue.message });
          }
          return;
        }
        const entry = parsed.data;
        const apiKey = entry.apiKey ?? (entry.apiKeyEnv ? stringOr(env[entry.apiKeyEnv]) : undefined);
        if (list.some((known) => known.id === entry.id)) {
          issues.push({ path: `${at}.id`, message: `"${entry.id}" is already the id of another provider` });
        }
        if (entry.provider !== 'openai-compatible' && !apiKey) {
          issues.push({
            path: `${at}.apiKeyEnv`,
            message: entry.apiKeyEnv
              ? `names ${entry.apiKeyEnv}, which is not set`
              : `is required for ${entry.provider} (the name of the variable holding the key)`,
          });
        }
        if (entry.provider === 'openai-compatible' && !entry.baseUrl) {
          issues.push({
            path: `${at}.baseUrl`,
            message: 'is required for openai-compatible (e.g. http://localhost:11434/v1)',
          });
        }
        if (entry.provider === 'openai-compatible' && !entry.model) {
          issues.push({
            path: `${at}.model`,
            message: 'is required for openai-compatible (the model name your server serves)',
          });
        }
        if (entry.provider !== 'openai-compatible' && entry.onServer === true) {
          issues.push({
            path: `${at}.onServer`,
            message: `cannot be true for ${entry.provider}: answers go to its service`,
          });
        }
        list.push({
          id: entry.id,
          label: entry.label ?? `${entry.id}${entry.model ? ` (${entry.model})` : ''}`,
          provider: entry.provider,
          model: entry.model,
          baseUrl: entry.baseUrl,
          apiKey,
          vision: entry.vision,
          inputPricePerMillion: entry.inputPricePerMillion,
          outputPricePerMillion: entry.outputPricePerMillion,
          onServer: entry.onServer ?? (entry.provider === 'openai-compatible' && isLocalAddress(entry.baseUrl)),
          ...common,
        });
      });
    }
  }
  const defaultId = env.AI_DEFAULT_PROVIDER ?? (env.AI_PROVIDER === 'builtin' ? 'builtin' : env.AI_PROVIDER);
  let defaultProvider = list.find((entry) => entry.id === defaultId);
  if (!defaultProvider) {
    issues.push({
      path: 'AI_DEFAULT_PROVIDER',
      message: `names "${defaultId}", which is not a configured provider (${list.map((entry) => entry.id).join(', ')})`,
    });
    defaultProvider = list[0]!;
  }
  return { list, defaultProvider, issues };
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Whether an address is this machine or a private network (a local model server). */
export function isLocalAddress(url: string | undefined): boolean {
  if (!url) return false;
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host === '::1' ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host)
  );
}

/** One extraction thread per core the server's own thread does not use, at least 1 and at most 4. */
export function defaultExtractionThreads(): number {
  return Math.min(4, Math.max(1, os.availableParallelism() - 1));
}

export class ConfigError extends Error {}

/** Reads configuration from an environment map (process.env by default). Throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join('.') || 'environment'}: ${issue.message}`);
    throw new ConfigError(`Gradewise cannot start: the configuration is invalid.\n${lines.join('\n')}`);
  }
  // The raw environment too: an AI_PROVIDERS entry's apiKeyEnv names a variable of its own choosing.
  const providers = readProviderList({ ...cleaned, ...parsed.data });
  if (providers.issues.length > 0) {
    const lines = providers.issues.map((issue) => `  - ${issue.path}: ${issue.message}`);
    throw new ConfigError(`Gradewise cannot start: the configuration is invalid.\n${lines.join('\n')}`);
  }
  return toConfig(parsed.data, providers);
}

export function parseDurationSeconds(raw: string): number {
  const match = /^(\d+)\s*([smhd]?)$/.exec(raw.trim());
  if (!match) throw new Error(`Invalid duration: ${raw}`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
