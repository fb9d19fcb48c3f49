/**
 * Readers for the public human-scored short-answer sets the grader is developed on. The data is
 * never committed: it is read from a folder given on the command line (`--data DIR`), laid out as
 * the public repositories clone (bench/README.md, "Getting the data", has the commands):
 *
 *   DIR/SAF                                     github.com/SebOchs/SAF
 *   DIR/score-freetext-answer                   github.com/leocomelli/score-freetext-answer
 *   DIR/GradingApp                              github.com/tobiasvennemann2401/GradingApp, checked
 *                                               out at c602a0494c08 (its first commit: later ones
 *                                               delete the SRA_numeric/ folder read here)
 *   DIR/s-bert-similarity-based-content-scoring github.com/mariebexte/s-bert-similarity-based-content-scoring
 *   DIR/generative-grading                      github.com/malik-ali/generative-grading
 *   DIR/CPSC5306-DataMiningProject              github.com/beingRD/CPSC5306-DataMiningProject
 *   DIR/aera                                    github.com/lijiazheng99/aera (only its
 *                                               dataset/chatgpt_api_0405/prompts/ folder is read)
 *   DIR/ASAG-Dataset                            github.com/DigiKlausur/ASAG-Dataset (only its
 *                                               grades.csv and notebooks/ are read)
 *
 * Families (`loadFamilies`; the benchmark holds out one whole family at a time, so each family's
 * train and test splits are merged):
 *
 * - saf: SAF, English part: computer-networks questions with reference answers and partial-credit
 *   scores 0..1 given with written feedback.
 * - scientsbank, beetle: SemEval-2013 Task 7 (science grades 3-6; electricity tutoring). Questions,
 *   reference answers and answer texts from the 2-way XML of score-freetext-answer; the labels are
 *   the 5-way ones where GradingApp's SRA_numeric/ has them (2 = correct, 1 =
 *   partially_correct_incomplete, 0 = contradictory, irrelevant or non_domain; share 1 / 0.5 / 0),
 *   which is every answer of the training, unseen-answers and unseen-questions splits. SciEntsBank's
 *   unseen-domains split has only 2-way labels there and is left out of the family, so that one
 *   family is graded on one scale. Without DIR/GradingApp both families fall back to 2-way.
 * - asap-sas: ASAP Short Answer Scoring (Kaggle 2012), the ten essay sets' train_rel_2 answers as
 *   s-bert-similarity-based-content-scoring splits them (data/gold_train_test_split/, both halves);
 *   share = Score1 / the set's maximum (found in the data: 3 for sets 1, 2, 5, 6, else 2). Sets 1,
 *   2, 5 and 6 have their question, key elements and marking rubric as the AERA paper's repository
 *   (Li et al. 2023) transcribed them from the Kaggle documents (`[Question]`, `[Key Elements]`,
 *   `[Marking Rubric]` in content.txt); the solution is the key elements and the rubric, as an
 *   instructor would paste them. The other six sets' prompts are reading passages found in no
 *   public repository as data: they have no question text and no reference answer (nothing is made
 *   up here).
 * - powergrading: Powergrading (Basu et al. 2013): ten US-citizenship questions, 698 answers each
 *   graded 0/1 by three graders (share = their mean); answers from generative-grading's copy of
 *   studentanswers_grades_698.tsv, questions and accepted answers from CPSC5306's
 *   questions_answer_key.xlsx (an Excel import of the corpus's questions_answer_key.tsv).
 * - digiklausur: DigiKlausur's ASAG dataset, a neural-networks final at a German university of
 *   applied sciences (in English): 17 questions, one examiner's 0/1/2, a class of 36; the questions
 *   without reference answers (digiklausurFamily says why).
 *
 * Every set is read into one shape: a question, its reference answers, and its answers with the
 * human score as a share of the points (0..1). The Texas/UNT CS set (Mohler et al.) and the
 * OS-course set of Xie et al. 2024 are deliberately NOT read here, under any copy or name (nor is
 * any repository that bundles them cloned whole): they are kept for independent evaluation.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

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
  /** saf, scientsbank, beetle, asap-sas, powergrading or digiklausur. */
  family: string;
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

export interface DatasetFamily {
  family: string;
  questions: DatasetQuestion[];
  /** Where the data came from: repositories and commits (joined with ' + ' when several) and the labels used. */
  source: { repo: string; commit: string; labels: string };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name]!)
    .trim();
}

/** A text file as UTF-8, or as Windows-1252 when it is not valid UTF-8 (older Kaggle exports). */
function readText(file: string | Buffer): string {
  const bytes = typeof file === 'string' ? fs.readFileSync(file) : file;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
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

function filesIn(dir: string, extension: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(extension))
    .sort()
    .map((name) => path.join(dir, name));
}

function readSafQuestion(file: string, set: string, family = 'saf'): DatasetQuestion {
  const xml = readText(file);
  const id = attribute(/<question([^>]*)>/.exec(xml)?.[1] ?? '', 'id') ?? path.basename(file);
  const answers = allTags(xml, 'studentAnswer').map((answer, index) => ({
    id: attribute(answer.attributes, 'id') ?? `${id}.${index}`,
    text: tagText(answer.body, 'response'),
    share: Math.min(1, Math.max(0, Number(tagText(answer.body, 'score')))),
    feedback: tagText(answer.body, 'response_feedback'),
  }));
  return {
    id: `${set}:${id}`,
    family,
    set,
    questionText: tagText(xml, 'questionText'),
    referenceAnswers: allTags(xml, 'referenceAnswer').map((reference) => decode(reference.body)),
    answers: answers.filter((answer) => Number.isFinite(answer.share)),
  };
}

/**
 * A SemEval-2013 question. `shareOf` gives an answer's share from its id and 2-way label, or
 * undefined to leave the answer out (no label on the chosen scale).
 */
function readSemevalQuestion(
  file: string,
  set: string,
  family: string,
  shareOf: (id: string, accuracy: string | undefined) => number | undefined = (_, accuracy) =>
    accuracy === 'correct' ? 1 : 0,
): DatasetQuestion {
  const xml = readText(file);
  const id = attribute(/<question([^>]*)>/.exec(xml)?.[1] ?? '', 'id') ?? path.basename(file);
  // Beetle lists several reference answers; BEST ones first, MINIMAL ones are also acceptable.
  const references = allTags(xml, 'referenceAnswer').map((reference) => decode(reference.body));
  const answers: DatasetAnswer[] = [];
  allTags(xml, 'studentAnswer').forEach((answer, index) => {
    const answerId = attribute(answer.attributes, 'id') ?? `${id}.${index}`;
    const share = shareOf(answerId, attribute(answer.attributes, 'accuracy'));
    if (share !== undefined) answers.push({ id: answerId, text: decode(answer.body), share });
  });
  return {
    id: `${set}:${id}`,
    family,
    set,
    questionText: tagText(xml, 'questionText'),
    referenceAnswers: references,
    answers,
  };
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

const semevalRoot = (folder: string) =>
  path.join(folder, 'score-freetext-answer', 'src', 'main', 'resources', 'corpus', 'semeval2013-task7');

/** All splits (SAF, SemEval 2-way) found under the data folder; a missing repository is skipped. */
export function loadDatasets(folder: string): DatasetSplit[] {
  const splits: DatasetSplit[] = [];
  const saf = path.join(folder, 'SAF', 'data');
  const safSplit = (name: string, dir: string, role: DatasetSplit['role']) => {
    const questions = filesIn(path.join(saf, dir, 'english'), '.xml').map((file) => readSafQuestion(file, name));
    if (questions.length) splits.push({ name, role, questions });
  };
  safSplit('saf-train', 'training', 'fit');
  safSplit('saf-unseen-answers', 'unseen_answers', 'evaluate');
  safSplit('saf-unseen-questions', 'unseen_questions', 'evaluate');

  const semeval = semevalRoot(folder);
  const semevalSplit = (name: string, dir: string, role: DatasetSplit['role']) => {
    const family = name.startsWith('beetle') ? 'beetle' : 'scientsbank';
    const questions = filesIn(path.join(semeval, dir), '.xml').map((file) => readSemevalQuestion(file, name, family));
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

/** The commit checked out in a cloned repository folder ('unknown' if it cannot be read). */
export function commitOf(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    try {
      const head = fs.readFileSync(path.join(dir, '.git', 'HEAD'), 'utf8').trim();
      if (!head.startsWith('ref: ')) return head;
      return fs.readFileSync(path.join(dir, '.git', head.slice(5)), 'utf8').trim();
    } catch {
      return 'unknown';
    }
  }
}

/**
 * Questions read from several split folders, merged by key (the same question appears in a
 * training and an unseen-answers split with different answers): the first copy's text and
 * references, every copy's answers.
 */
function mergeQuestions(family: string, parts: { key: string; question: DatasetQuestion }[]): DatasetQuestion[] {
  const byKey = new Map<string, DatasetQuestion>();
  for (const { key, question } of parts) {
    const known = byKey.get(key);
    if (known) {
      const seen = new Set(known.answers.map((answer) => answer.id));
      known.answers.push(...question.answers.filter((answer) => !seen.has(answer.id)));
    } else {
      byKey.set(key, { ...question, id: `${family}:${key}`, family, set: family, answers: [...question.answers] });
    }
  }
  return [...byKey.values()].filter((question) => question.answers.length > 0);
}

function safFamily(folder: string): DatasetFamily | undefined {
  const dir = path.join(folder, 'SAF');
  const parts = ['training', 'unseen_answers', 'unseen_questions'].flatMap((split) =>
    filesIn(path.join(dir, 'data', split, 'english'), '.xml').map((file) => ({
      // Keyed by file: two LM files carry the same question id attribute.
      key: path.basename(file, '.xml'),
      question: readSafQuestion(file, 'saf'),
    })),
  );
  if (!parts.length) return undefined;
  return {
    family: 'saf',
    questions: mergeQuestions('saf', parts),
    source: {
      repo: 'SebOchs/SAF',
      commit: commitOf(dir),
      labels: 'partial credit 0..1 (score); English; training + unseen answers + unseen questions',
    },
  };
}

/** SRA_numeric/*.tsv (AnswerId, PromptId, Score1, AnswerText): 5-way labels as 2 / 1 / 0. */
function readFiveWayShares(folder: string): Map<string, number> {
  const shares = new Map<string, number>();
  for (const file of filesIn(path.join(folder, 'GradingApp', 'SRA_numeric'), '.tsv')) {
    const rows = readText(file).split(/\r?\n/).filter(Boolean);
    const header = rows[0]!.split('\t');
    const idColumn = header.indexOf('AnswerId');
    const scoreColumn = header.indexOf('Score1');
    for (const row of rows.slice(1)) {
      const cells = row.split('\t');
      const score = Number(cells[scoreColumn]);
      if (cells[idColumn] && Number.isFinite(score)) shares.set(cells[idColumn]!, score / 2);
    }
  }
  return shares;
}

function semevalFamilies(folder: string): DatasetFamily[] {
  const root = semevalRoot(folder);
  if (!fs.existsSync(root)) return [];
  const fiveWay = readFiveWayShares(folder);
  const rich = fiveWay.size > 0;
  const shareOf = (id: string, accuracy: string | undefined) =>
    rich ? fiveWay.get(id) : accuracy === 'correct' ? 1 : 0;
  const repo = rich
    ? 'leocomelli/score-freetext-answer + tobiasvennemann2401/GradingApp'
    : 'leocomelli/score-freetext-answer';
  const commit = rich
    ? `${commitOf(path.join(folder, 'score-freetext-answer'))} + ${commitOf(path.join(folder, 'GradingApp'))}`
    : commitOf(path.join(folder, 'score-freetext-answer'));
  const families: DatasetFamily[] = [];
  const family = (name: string, dirs: string[], splitsRead: string) => {
    const parts = dirs.flatMap((dir) =>
      filesIn(path.join(root, dir), '.xml').map((file) => ({
        key: path.basename(file, '.xml'),
        question: readSemevalQuestion(file, name, name, shareOf),
      })),
    );
    const questions = mergeQuestions(name, parts);
    if (!questions.length) return;
    const labels = rich
      ? `5-way (SRA_numeric): correct 1, partially_correct_incomplete 0.5, contradictory/irrelevant/non_domain 0; ${splitsRead}`
      : `2-way: correct 1, incorrect 0; ${splitsRead}`;
    families.push({ family: name, questions, source: { repo, commit, labels } });
  };
  // Unseen domains has no 5-way labels in SRA_numeric: read only on the 2-way fallback.
  family(
    'scientsbank',
    [
      'training/2way/sciEntsBank',
      'test/2way/sciEntsBank/test-unseen-answers',
      'test/2way/sciEntsBank/test-unseen-questions',
      ...(rich ? [] : ['test/2way/sciEntsBank/test-unseen-domains']),
    ],
    rich
      ? 'training + unseen answers + unseen questions (unseen domains left out: 2-way only)'
      : 'training + unseen answers + unseen questions + unseen domains',
  );
  family(
    'beetle',
    ['training/2way/beetle', 'test/2way/beetle/test-unseen-answers', 'test/2way/beetle/test-unseen-questions'],
    'training + unseen answers + unseen questions',
  );
  return families;
}

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows.filter((cells) => cells.some((cell) => cell !== ''));
}

/**
 * An ASAP-SAS set's question and solution from AERA's content.txt ("[Question]:", "[Key
 * Elements]:", "[Marking Rubric]:" sections), or null when the folder does not have it.
 */
function asapPrompt(folder: string, set: number): { questionText: string; solutionText: string } | null {
  const file = path.join(folder, 'aera', 'dataset', 'chatgpt_api_0405', 'prompts', `asap-${set}`, 'content.txt');
  if (!fs.existsSync(file)) return null;
  const sections = new Map<string, string>();
  for (const match of readText(file).matchAll(/\[([^\]]+)\]:\s*([\s\S]*?)(?=\n\s*\[[^\]]+\]:|$)/g))
    sections.set(match[1]!.trim().toLowerCase(), match[2]!.trim());
  const questionText = sections.get('question');
  const keyElements = sections.get('key elements');
  const rubric = sections.get('marking rubric');
  if (!questionText || !keyElements || !rubric) return null;
  return { questionText, solutionText: `Key elements:\n${keyElements}\n\nMarking rubric:\n${rubric}` };
}

function asapFamily(folder: string): DatasetFamily | undefined {
  const dir = path.join(folder, 's-bert-similarity-based-content-scoring');
  const splitDir = path.join(dir, 'data', 'gold_train_test_split');
  const questions: DatasetQuestion[] = [];
  for (let set = 1; set <= 10; set++) {
    const rows: { id: string; text: string; score1: number; score2: number }[] = [];
    for (const half of ['train', 'test']) {
      const file = path.join(splitDir, `${set}_GOLD_${half}.csv`);
      if (!fs.existsSync(file)) continue;
      const [header, ...body] = parseCsv(readText(file));
      const column = (name: string) => header!.indexOf(name);
      for (const cells of body) {
        rows.push({
          id: cells[column('Id')]!,
          // Kaggle's texts carry HTML entities (&amp;, &#8776;).
          text: decode(cells[column('EssayText')] ?? ''),
          score1: Number(cells[column('Score1')]),
          score2: Number(cells[column('Score2')]),
        });
      }
    }
    const scored = rows.filter((row) => Number.isFinite(row.score1));
    if (!scored.length) continue;
    // The set's maximum as the data has it (both raters): 3 for sets 1, 2, 5 and 6, 2 for the others.
    const maximum = Math.max(...scored.flatMap((row) => [row.score1, Number.isFinite(row.score2) ? row.score2 : 0]));
    const prompt = asapPrompt(folder, set);
    questions.push({
      id: `asap-sas:${set}`,
      family: 'asap-sas',
      set: 'asap-sas',
      // Sets without a public copy of their prompt and rubric have neither; see the header comment.
      questionText: prompt?.questionText ?? '',
      referenceAnswers: prompt ? [prompt.solutionText] : [],
      answers: scored.map((row) => ({ id: `asap-sas:${row.id}`, text: row.text, share: row.score1 / maximum })),
    });
  }
  if (!questions.length) return undefined;
  const withPrompt = questions.filter((question) => question.questionText).map((question) => question.id.split(':')[1]);
  return {
    family: 'asap-sas',
    questions,
    source: {
      repo: 'mariebexte/s-bert-similarity-based-content-scoring',
      commit: commitOf(dir),
      labels: `Score1 / set maximum (0-3 sets 1, 2, 5, 6; 0-2 others); train_rel_2 (gold train + test); ${
        withPrompt.length
          ? `question, key elements and rubric of sets ${withPrompt.join(', ')} from lijiazheng99/aera@${commitOf(path.join(folder, 'aera')).slice(0, 12)}, the others none`
          : 'no question texts or reference answers'
      }`,
    },
  };
}

/** The files of a zip archive (stored or deflated), read through its central directory. */
function unzip(archive: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let end = archive.length - 22;
  while (end >= 0 && archive.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a zip archive');
  let entry = archive.readUInt32LE(end + 16);
  const count = archive.readUInt16LE(end + 10);
  for (let index = 0; index < count; index++) {
    const method = archive.readUInt16LE(entry + 10);
    const compressedSize = archive.readUInt32LE(entry + 20);
    const nameLength = archive.readUInt16LE(entry + 28);
    const extraLength = archive.readUInt16LE(entry + 30);
    const commentLength = archive.readUInt16LE(entry + 32);
    const local = archive.readUInt32LE(entry + 42);
    const name = archive.toString('utf8', entry + 46, entry + 46 + nameLength);
    const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const data = archive.subarray(start, start + compressedSize);
    files.set(name, method === 8 ? zlib.inflateRawSync(data) : Buffer.from(data));
    entry += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

/** The first sheet of an .xlsx workbook as rows of cell texts (by column letter, gaps as ''). */
function readXlsxRows(file: string): string[][] {
  const files = unzip(fs.readFileSync(file));
  const shared = allTags(files.get('xl/sharedStrings.xml')?.toString('utf8') ?? '', 'si').map((item) =>
    decode(
      allTags(item.body, 't')
        .map((run) => run.body)
        .join(''),
    ),
  );
  const sheet = files.get('xl/worksheets/sheet1.xml')?.toString('utf8') ?? '';
  const columnIndex = (reference: string) =>
    [...(/^[A-Z]+/.exec(reference)?.[0] ?? 'A')].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0) - 1;
  return allTags(sheet, 'row').map((row) => {
    const cells: string[] = [];
    for (const cell of row.body.matchAll(/<c\s([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attributes = cell[1]!;
      const body = cell[2] ?? '';
      const value = tagText(body, 'v');
      const type = attribute(attributes, 't');
      const text =
        type === 's' ? (shared[Number(value)] ?? '') : type === 'inlineStr' ? tagText(body, 't') : decode(value);
      const index = columnIndex(attribute(attributes, 'r') ?? '');
      while (cells.length < index) cells.push('');
      cells[index] = text;
    }
    return cells;
  });
}

function powergradingFamily(folder: string): DatasetFamily | undefined {
  const answersDir = path.join(folder, 'generative-grading');
  const keyDir = path.join(folder, 'CPSC5306-DataMiningProject');
  const answersFile = path.join(
    answersDir,
    'src',
    'rubricsampling',
    'citizenshipRawData',
    'studentanswers_grades_698.tsv',
  );
  const keyFile = path.join(keyDir, 'dataset', 'questions_answer_key.xlsx');
  if (!fs.existsSync(answersFile) || !fs.existsSync(keyFile)) return undefined;
  const key = new Map<string, { questionText: string; referenceAnswers: string[] }>();
  for (const [number, questionText, ...accepted] of readXlsxRows(keyFile).slice(1)) {
    if (!number || !questionText) continue;
    key.set(number.trim(), {
      questionText: questionText.trim(),
      referenceAnswers: accepted.map((a) => a.trim()).filter(Boolean),
    });
  }
  const byQuestion = new Map<string, DatasetAnswer[]>();
  const rows = readText(answersFile).split(/\r?\n/).filter(Boolean);
  const header = rows[0]!.split('\t');
  const column = (name: string) => header.indexOf(name);
  for (const row of rows.slice(1)) {
    const cells = row.split('\t');
    const grades = ['G1', 'G2', 'G3'].map((name) => Number(cells[column(name)]));
    // -1: not graded (only ten of the twenty questions were); an empty answer that was graded stays.
    if (grades.some((grade) => !(grade === 0 || grade === 1))) continue;
    const number = cells[column('Q#')]!.trim();
    const answers = byQuestion.get(number) ?? [];
    answers.push({
      id: `powergrading:${number}:${cells[column('student')]}`,
      text: (cells[column('answer')] ?? '').trim(),
      share: grades.reduce((sum, grade) => sum + grade, 0) / grades.length,
    });
    byQuestion.set(number, answers);
  }
  const questions: DatasetQuestion[] = [...byQuestion]
    .filter(([number]) => key.has(number))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([number, answers]) => ({
      id: `powergrading:${number}`,
      family: 'powergrading',
      set: 'powergrading',
      ...key.get(number)!,
      answers,
    }));
  if (!questions.length) return undefined;
  return {
    family: 'powergrading',
    questions,
    source: {
      repo: 'malik-ali/generative-grading + beingRD/CPSC5306-DataMiningProject',
      commit: `${commitOf(answersDir)} + ${commitOf(keyDir)}`,
      labels: 'mean of three graders 0/1 (0, 1/3, 2/3, 1); the ten graded questions x 698 answers',
    },
  };
}

/**
 * DigiKlausur's neural-networks final (H-BRS, WS17): each student's Jupyter notebook holds the
 * seventeen mandatory questions ("**Question N**" cells) each followed by the answer cell nbgrader
 * marks as a solution; grades.csv has the one examiner's grade of each, 0, 1 or 2 (share 0, 0.5, 1).
 * The reference answers are only in the repository's asag_dataset.csv, not in its public history as
 * cloned here, so the family has the questions and no reference (as ASAP-SAS's six sets have none).
 * An answer cell left empty (or nbgrader's "YOUR ANSWER HERE") that the examiner graded above 0 is an
 * answer the notebook does not hold: left out, as are the three students whose notebooks hold no
 * answer at all; an empty answer graded 0 stays.
 */
function digiklausurFamily(folder: string): DatasetFamily | undefined {
  const dir = path.join(folder, 'ASAG-Dataset');
  const gradesFile = path.join(dir, 'grades.csv');
  const notebooks = path.join(dir, 'notebooks');
  if (!fs.existsSync(gradesFile) || !fs.existsSync(notebooks)) return undefined;
  const [header, ...rows] = parseCsv(readText(gradesFile));
  const grades = new Map<string, number>();
  for (const cells of rows) {
    header!.forEach((student, column) => {
      if (column > 0 && cells[column] !== undefined) grades.set(`${cells[0]}:${student}`, Number(cells[column]));
    });
  }
  const texts = new Map<number, string>();
  const byQuestion = new Map<number, DatasetAnswer[]>();
  for (const file of filesIn(notebooks, '.ipynb')) {
    const number = /mas-usb-(\d+)\.ipynb$/.exec(file)?.[1];
    if (!number) continue;
    const student = `usb${Number(number)}`;
    const cells = (JSON.parse(readText(file)) as { cells: NotebookCell[] }).cells;
    const found: { questionNumber: number; text: string; grade: number }[] = [];
    cells.forEach((cell, index) => {
      const source = notebookSource(cell);
      const question = cell.cell_type === 'markdown' ? /\*\*Question (\d+)\*\*/.exec(source) : null;
      if (!question || Number(question[1]) > 17) return;
      const questionNumber = Number(question[1]);
      const answerCell = cells.slice(index + 1, index + 4).find((next) => next.metadata?.nbgrader?.solution);
      const grade = grades.get(`${questionNumber}:${student}`);
      if (!answerCell || grade === undefined || ![0, 1, 2].includes(grade)) return;
      texts.set(questionNumber, source.replace(/\*\*Question \d+\*\*/, '').trim());
      const answer = notebookSource(answerCell).trim();
      found.push({ questionNumber, text: answer.includes('YOUR ANSWER HERE') ? '' : answer, grade });
    });
    // A notebook without a single answer holds none of that student's answers: their grades are of
    // answers given elsewhere, even the 0s.
    if (!found.some((answer) => answer.text)) continue;
    for (const { questionNumber, text, grade } of found) {
      if (!text && grade > 0) continue;
      const answers = byQuestion.get(questionNumber) ?? [];
      answers.push({ id: `digiklausur:${questionNumber}:${student}`, text, share: grade / 2 });
      byQuestion.set(questionNumber, answers);
    }
  }
  const questions: DatasetQuestion[] = [...byQuestion]
    .sort(([a], [b]) => a - b)
    .map(([number, answers]) => ({
      id: `digiklausur:${number}`,
      family: 'digiklausur',
      set: 'digiklausur',
      questionText: texts.get(number) ?? '',
      referenceAnswers: [],
      answers,
    }));
  if (!questions.length) return undefined;
  return {
    family: 'digiklausur',
    questions,
    source: {
      repo: 'DigiKlausur/ASAG-Dataset',
      commit: commitOf(dir),
      labels: "one examiner's 0/1/2 (share 0, 0.5, 1); the 17 mandatory questions; questions, no reference answers",
    },
  };
}

interface NotebookCell {
  cell_type: string;
  source: string | string[];
  metadata?: { nbgrader?: { solution?: boolean } };
}

const notebookSource = (cell: NotebookCell) => (Array.isArray(cell.source) ? cell.source.join('') : cell.source);

/**
 * Every family found under the data folder, each with ALL its questions (train and test splits
 * merged: the benchmark holds out whole families). A missing repository leaves its family out.
 */
export function loadFamilies(folder: string): DatasetFamily[] {
  const families = [
    safFamily(folder),
    ...semevalFamilies(folder),
    asapFamily(folder),
    powergradingFamily(folder),
    digiklausurFamily(folder),
  ].filter((family): family is DatasetFamily => family !== undefined);
  if (!families.length) {
    console.error(`No data sets found under ${folder}. See bench/README.md for the layout.`);
    process.exit(2);
  }
  return families;
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
