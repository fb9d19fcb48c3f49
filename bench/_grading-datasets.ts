/**
 * Readers for the public human-scored short-answer sets the grader is developed on. The data is
 * never committed: it is read from a folder given on the command line (`--data DIR`), laid out as
 * the two public repositories clone:
 *
 *   DIR/SAF                      git clone https://github.com/SebOchs/SAF
 *   DIR/score-freetext-answer    git clone https://github.com/leocomelli/score-freetext-answer
 *
 * SAF (English part): questions on computer networks with reference answers and partial-credit
 * scores 0..1 given with written feedback. SemEval-2013 Task 7, 2-way: SciEntsBank (science,
 * grades 3-6) and Beetle (electricity tutoring), each answer judged correct or incorrect.
 *
 * Every set is read into one shape: a question, its reference answers, and its answers with the
 * human score as a share of the points (0..1). The Texas/UNT CS set (Mohler et al.) and the
 * OS-course set of Xie et al. 2024 are deliberately NOT read here: they are kept for independent
 * evaluation.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DatasetAnswer {
  id: string;
  text: string;
  /** Human score as a share of the points, 0..1. */
  share: number;
  /** The human grader's written feedback, when the set has it (SAF). */
  feedback?: string;
}

export interface DatasetQuestion {
  id: string;
  set: string;
  questionText: string;
  referenceAnswers: string[];
  answers: DatasetAnswer[];
}

export interface DatasetSplit {
  name: string;
  /** 'fit': used to fit the grader's model; 'evaluate': never fitted on. */
  role: 'fit' | 'evaluate';
  questions: DatasetQuestion[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .trim();
}

function tagText(xml: string, tag: string): string {
  const match = new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`).exec(xml);
  return match ? decode(match[1]!) : '';
}

function allTags(xml: string, tag: string): { attributes: string; body: string }[] {
  const pattern = new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g');
  return [...xml.matchAll(pattern)].map((match) => ({ attributes: match[1] ?? '', body: match[2]! }));
}

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1];
}

function xmlFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.xml'))
    .sort()
    .map((name) => path.join(dir, name));
}

function readSafQuestion(file: string, set: string): DatasetQuestion {
  const xml = fs.readFileSync(file, 'utf8');
  const id = attribute(/<question([^>]*)>/.exec(xml)?.[1] ?? '', 'id') ?? path.basename(file);
  const answers = allTags(xml, 'studentAnswer').map((answer, index) => ({
    id: attribute(answer.attributes, 'id') ?? `${id}.${index}`,
    text: tagText(answer.body, 'response'),
    share: Math.min(1, Math.max(0, Number(tagText(answer.body, 'score')))),
    feedback: tagText(answer.body, 'response_feedback'),
  }));
  return {
    id: `${set}:${id}`,
    set,
    questionText: tagText(xml, 'questionText'),
    referenceAnswers: allTags(xml, 'referenceAnswer').map((reference) => decode(reference.body)),
    answers: answers.filter((answer) => Number.isFinite(answer.share)),
  };
}

function readSemevalQuestion(file: string, set: string): DatasetQuestion {
  const xml = fs.readFileSync(file, 'utf8');
  const id = attribute(/<question([^>]*)>/.exec(xml)?.[1] ?? '', 'id') ?? path.basename(file);
  // Beetle lists several reference answers; BEST ones first, MINIMAL ones are also acceptable.
  const references = allTags(xml, 'referenceAnswer').map((reference) => decode(reference.body));
  const answers = allTags(xml, 'studentAnswer').map((answer, index) => ({
    id: attribute(answer.attributes, 'id') ?? `${id}.${index}`,
    text: decode(answer.body),
    share: attribute(answer.attributes, 'accuracy') === 'correct' ? 1 : 0,
  }));
  return { id: `${set}:${id}`, set, questionText: tagText(xml, 'questionText'), referenceAnswers: references, answers };
}

export function dataFolderFromArgs(argv: string[]): string {
  const index = argv.indexOf('--data');
  const folder = index >= 0 ? argv[index + 1] : process.env.GRADING_DATA_DIR;
  if (!folder || !fs.existsSync(folder)) {
    // `npm run bench` runs every benchmark; without the data this one measures nothing and says why.
    console.log(
      'Grading quality needs the public human-scored sets, which are never committed: pass --data DIR (or set GRADING_DATA_DIR). See bench/README.md, "Grading quality on real answers". Nothing measured.',
    );
    process.exit(0);
  }
  return folder;
}

/** All splits found under the data folder; a missing repository is skipped with a note. */
export function loadDatasets(folder: string): DatasetSplit[] {
  const splits: DatasetSplit[] = [];
  const saf = path.join(folder, 'SAF', 'data');
  const safSplit = (name: string, dir: string, role: DatasetSplit['role']) => {
    const questions = xmlFiles(path.join(saf, dir, 'english')).map((file) => readSafQuestion(file, name));
    if (questions.length) splits.push({ name, role, questions });
  };
  safSplit('saf-train', 'training', 'fit');
  safSplit('saf-unseen-answers', 'unseen_answers', 'evaluate');
  safSplit('saf-unseen-questions', 'unseen_questions', 'evaluate');

  const semeval = path.join(folder, 'score-freetext-answer', 'src', 'main', 'resources', 'corpus', 'semeval2013-task7');
  const semevalSplit = (name: string, dir: string, role: DatasetSplit['role']) => {
    const questions = xmlFiles(path.join(semeval, dir)).map((file) => readSemevalQuestion(file, name));
    if (questions.length) splits.push({ name, role, questions });
  };
  semevalSplit('scientsbank-train', 'training/2way/sciEntsBank', 'fit');
  semevalSplit('beetle-train', 'training/2way/beetle', 'fit');
  semevalSplit('scientsbank-unseen-answers', 'test/2way/sciEntsBank/test-unseen-answers', 'evaluate');
  semevalSplit('scientsbank-unseen-questions', 'test/2way/sciEntsBank/test-unseen-questions', 'evaluate');
  semevalSplit('scientsbank-unseen-domains', 'test/2way/sciEntsBank/test-unseen-domains', 'evaluate');
  semevalSplit('beetle-unseen-answers', 'test/2way/beetle/test-unseen-answers', 'evaluate');
  semevalSplit('beetle-unseen-questions', 'test/2way/beetle/test-unseen-questions', 'evaluate');
  if (!splits.length) {
    console.error(`No data sets found under ${folder}. See bench/README.md for the layout.`);
    process.exit(2);
  }
  return splits;
}

/** The reference answers as one solution text, the way an instructor would write alternatives. */
export function solutionTextOf(question: DatasetQuestion): string {
  if (question.referenceAnswers.length <= 1) return question.referenceAnswers[0] ?? '';
  return question.referenceAnswers.join('\nOr: ');
}

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}
