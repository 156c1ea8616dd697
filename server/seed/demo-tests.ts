import { eq } from "drizzle-orm";
import {
  attemptEvents,
  attemptResponses,
  attempts,
  contents,
  enrollments,
  mockTestQuestions,
  mockTests,
  questions,
  seriesTests,
  users,
} from "../db/schema/index.ts";
import type { Tx } from "../db/types.ts";
import { PATTERNS, type PatternId } from "#common/mock-tests/patterns.ts";
import type { QuestionJson } from "#common/mock-tests/question.ts";
import type { AttemptAnswer } from "#common/mock-tests/attempt.ts";
import { loadPaper, scorableSections } from "../services/mock-tests/papers.ts";
import { scoreAttempt } from "../services/mock-tests/scoring.ts";
import { standings } from "../services/mock-tests/ranking.ts";

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

const tags = (subject: string, chapter: string, difficulty: "easy" | "medium" | "hard") => ({
  subject,
  chapter,
  difficulty,
});

/** The demo bank: JEE Main style physics, chemistry and mathematics, and NEET biology, with LaTeX. */
const BANK: Record<string, QuestionJson[]> = {
  physicsA: [
    {
      type: "single",
      text: "A ball is thrown up with speed $u = 20\\,\\text{m/s}$. Taking $g = 10\\,\\text{m/s}^2$, its maximum height is",
      options: ["$10\\,\\text{m}$", "$20\\,\\text{m}$", "$40\\,\\text{m}$", "$80\\,\\text{m}$"],
      answer: 1,
      solution: "$H = \\dfrac{u^2}{2g} = \\dfrac{400}{20} = 20\\,\\text{m}$.",
      tags: tags("Physics", "Kinematics", "easy"),
      hindi: {
        text: "एक गेंद को $u = 20\\,\\text{m/s}$ की चाल से ऊपर फेंका जाता है। $g = 10\\,\\text{m/s}^2$ लेने पर अधिकतम ऊँचाई है",
        options: ["$10\\,\\text{m}$", "$20\\,\\text{m}$", "$40\\,\\text{m}$", "$80\\,\\text{m}$"],
      },
    },
    {
      type: "single",
      text: "The moment of inertia of a uniform rod of mass $M$ and length $L$ about an axis through its centre, perpendicular to it, is",
      options: ["$\\dfrac{ML^2}{12}$", "$\\dfrac{ML^2}{3}$", "$\\dfrac{ML^2}{2}$", "$ML^2$"],
      answer: 0,
      solution: "$I = \\int_{-L/2}^{L/2} \\lambda x^2\\,dx = \\dfrac{ML^2}{12}$.",
      tags: tags("Physics", "Rotational Motion", "medium"),
    },
  ],
  physicsB: [
    {
      type: "numerical",
      text: "A disc rolls without slipping with centre speed $v = 2\\,\\text{m/s}$. What fraction of its kinetic energy is rotational? Give the answer to two decimals.",
      answer: { value: 0.33, tolerance: 0.01 },
      decimals: { places: 2, mode: "round" },
      solution: "$K_\\text{rot} = \\tfrac14 Mv^2$, $K = \\tfrac34 Mv^2$, so the fraction is $\\tfrac13 \\approx 0.33$.",
      tags: tags("Physics", "Rotational Motion", "hard"),
    },
  ],
  chemistryA: [
    {
      type: "single",
      text: "The hybridisation of carbon in $\\mathrm{CH_4}$ is",
      options: ["$sp$", "$sp^2$", "$sp^3$", "$sp^3d$"],
      answer: 2,
      solution: "Four σ bonds and no lone pair: $sp^3$.",
      tags: tags("Chemistry", "Chemical Bonding", "easy"),
    },
    {
      type: "single",
      text: "Which gas is produced when zinc reacts with dilute $\\mathrm{HCl}$?",
      options: ["$\\mathrm{O_2}$", "$\\mathrm{H_2}$", "$\\mathrm{Cl_2}$", "$\\mathrm{CO_2}$"],
      answer: 1,
      solution: "$\\mathrm{Zn + 2HCl \\rightarrow ZnCl_2 + H_2}$.",
      tags: tags("Chemistry", "Redox Reactions", "easy"),
    },
  ],
  chemistryB: [
    {
      type: "numerical",
      text: "How many moles of $\\mathrm{O_2}$ are needed to burn 2 moles of $\\mathrm{CH_4}$ completely?",
      answer: 4,
      solution: "$\\mathrm{CH_4 + 2O_2 \\rightarrow CO_2 + 2H_2O}$: 2 × 2 = 4 moles.",
      tags: tags("Chemistry", "Stoichiometry", "easy"),
    },
  ],
  mathsA: [
    {
      type: "single",
      text: "$\\displaystyle \\int_0^1 x^2\\,dx$ equals",
      options: ["$\\tfrac12$", "$\\tfrac13$", "$\\tfrac14$", "$1$"],
      answer: 1,
      solution: "$\\left[\\tfrac{x^3}{3}\\right]_0^1 = \\tfrac13$.",
      tags: tags("Mathematics", "Integrals", "easy"),
    },
    {
      type: "single",
      text: "If $z = 1 + i$, then $|z|^2$ is",
      options: ["$1$", "$2$", "$\\sqrt2$", "$4$"],
      answer: 1,
      solution: "$|z|^2 = 1^2 + 1^2 = 2$.",
      tags: tags("Mathematics", "Complex Numbers", "easy"),
    },
  ],
  mathsB: [
    {
      type: "numerical",
      text: "The number of ways to arrange the letters of the word $\\text{LEVEL}$ is",
      answer: 30,
      solution: "$\\dfrac{5!}{2!\\,2!} = 30$.",
      tags: tags("Mathematics", "Permutations", "medium"),
    },
  ],
  biology: [
    {
      type: "single",
      text: "Which chamber of the human heart pumps oxygenated blood to the body?",
      options: ["Right atrium", "Right ventricle", "Left atrium", "Left ventricle"],
      answer: 3,
      solution: "The left ventricle pumps blood into the aorta.",
      tags: tags("Biology", "Human Physiology", "easy"),
    },
    {
      type: "single",
      text: "The functional unit of the kidney is the",
      options: ["Neuron", "Nephron", "Alveolus", "Villus"],
      answer: 1,
      solution: "Each kidney has about a million nephrons.",
      tags: tags("Biology", "Human Physiology", "easy"),
    },
  ],
};

/** JEE Main's sections, each with the demo's few questions (a short mock a newcomer can finish). */
const JEE_SECTIONS: [string, QuestionJson[]][] = [
  ["Physics Section A", BANK.physicsA],
  ["Physics Section B", BANK.physicsB],
  ["Chemistry Section A", BANK.chemistryA],
  ["Chemistry Section B", BANK.chemistryB],
  ["Mathematics Section A", BANK.mathsA],
  ["Mathematics Section B", BANK.mathsB],
];

interface DemoTest {
  title: string;
  description: string;
  centerId: string | undefined;
  pattern: PatternId;
  sections: [string, QuestionJson[]][];
  durationMinutes: number;
  price: number;
  opensAt?: Date;
  closesAt?: Date;
  resultRelease?: "immediate" | "after-window" | "manual";
  practice?: boolean;
}

/** Those who sat the finished demo mock beside the demo student (they cannot sign in). */
const DEMO_TAKERS = ["Aarav Mehta", "Ishita Rao", "Kabir Singh", "Meher Kaur"];

/**
 * The demo's tests: a finished JEE Main mock with results and ranks, mocks to take now, a live
 * mock opening next week sold in a series, a chapter test, and a NEET practice test.
 */
export async function seedDemoTests(
  tx: Tx,
  d: { creatorId: string; studentId?: string; sunrise?: string; vidya?: string; now: number },
): Promise<void> {
  const [already] = await tx.select({ id: questions.id }).from(questions).where(eq(questions.authorId, d.creatorId));
  if (already) return;
  const stored = new Map<QuestionJson, string>();
  // The demo creator works for both institutes: JEE questions are in Sunrise's bank, NEET biology in Vidya's.
  for (const [name, list] of Object.entries(BANK)) {
    const rows = await tx
      .insert(questions)
      .values(
        list.map((q) => ({
          authorId: d.creatorId,
          centerId: name === "biology" ? d.vidya : d.sunrise,
          type: q.type,
          data: q,
          subject: q.tags?.subject ?? null,
          chapter: q.tags?.chapter ?? null,
          difficulty: q.tags?.difficulty ?? null,
        })),
      )
      .returning({ id: questions.id });
    list.forEach((q, i) => stored.set(q, rows[i].id));
  }

  const make = async (test: DemoTest): Promise<string> => {
    const pattern = PATTERNS[test.pattern];
    const [content] = await tx
      .insert(contents)
      .values({
        creatorId: d.creatorId,
        centerId: test.centerId,
        type: "test",
        title: test.title,
        description: test.description,
        price: test.price * 100,
        createdAt: new Date(d.now - 4 * DAY),
      })
      .returning({ id: contents.id });
    await tx.insert(mockTests).values({
      contentId: content.id,
      centerId: test.centerId,
      pattern: test.pattern,
      mode: pattern.mode,
      practice: test.practice ?? false,
      durationMinutes: test.durationMinutes,
      sections: test.sections.map(([name], i) => ({
        name,
        marking:
          pattern.sections.find((s) => s.name === name)?.marking ??
          pattern.sections[i]?.marking ??
          PATTERNS.custom.sections[0].marking,
      })),
      opensAt: test.opensAt,
      closesAt: test.closesAt,
      resultRelease: test.resultRelease ?? "immediate",
      status: "published",
      publishedAt: new Date(d.now - 4 * DAY),
    });
    await tx
      .insert(mockTestQuestions)
      .values(
        test.sections.flatMap(([, list], section) =>
          list.map((q, position) => ({ testId: content.id, section, position, sourceId: stored.get(q), question: q })),
        ),
      );
    return content.id;
  };

  const finished = await make({
    title: "JEE Main Mock Test 1",
    description: "A short JEE Main 2025 pattern mock: Section A single-correct, Section B numerical, +4 / −1.",
    centerId: d.sunrise,
    pattern: "jee-main-2025",
    sections: JEE_SECTIONS,
    durationMinutes: 30,
    price: 0,
    opensAt: new Date(d.now - 3 * DAY),
    closesAt: new Date(d.now - 2 * DAY),
    resultRelease: "after-window",
  });
  const paid = await make({
    title: "JEE Main Mock Test 2",
    description: "The second mock of the series, open any time.",
    centerId: d.sunrise,
    pattern: "jee-main-2025",
    sections: JEE_SECTIONS,
    durationMinutes: 30,
    price: 99,
  });
  const live = await make({
    title: "JEE Main All-Sunrise Live Mock",
    description: "Everyone sits it together next week; ranks and percentiles when the window closes.",
    centerId: d.sunrise,
    pattern: "jee-main-2025",
    sections: JEE_SECTIONS,
    durationMinutes: 30,
    price: 99,
    opensAt: new Date(d.now + 7 * DAY),
    closesAt: new Date(d.now + 7 * DAY + 2 * 60 * MINUTE),
    resultRelease: "after-window",
  });
  await make({
    title: "Kinematics & Rotation Chapter Test",
    description: "A free 15-minute chapter test: take it now and see your rank at once.",
    centerId: d.sunrise,
    pattern: "custom",
    sections: [["Physics", [...BANK.physicsA, ...BANK.physicsB]]],
    durationMinutes: 15,
    price: 0,
  });
  await make({
    title: "NEET Biology Practice: Human Physiology",
    description: "Practice mode: the solution after each answer.",
    centerId: d.vidya,
    pattern: "custom",
    sections: [["Biology", BANK.biology]],
    durationMinutes: 20,
    price: 0,
    practice: true,
  });

  const [series] = await tx
    .insert(contents)
    .values({
      creatorId: d.creatorId,
      centerId: d.sunrise,
      type: "series",
      title: "JEE Main Mock Series 2026",
      description: "Mock Test 2 and next week's live mock, with ranks among every Sunrise student who sits them.",
      price: 19900,
    })
    .returning({ id: contents.id });
  await tx.insert(seriesTests).values([
    { seriesId: series.id, testId: paid, position: 0 },
    { seriesId: series.id, testId: live, position: 1 },
  ]);

  await seedFinishedSittings(tx, finished, { ...d, centerId: d.sunrise });
}

/** The finished mock's sittings: the demo student's and four others', scored, ranked, released. */
async function seedFinishedSittings(
  tx: Tx,
  testId: string,
  d: { studentId?: string; centerId?: string; now: number },
): Promise<void> {
  const takers = await tx
    .insert(users)
    .values(
      DEMO_TAKERS.map((name, i) => ({
        name,
        email: `taker${i + 1}@demo.pathshala.invalid`,
        role: "student" as const,
        // Not a password hash: these accounts cannot sign in.
        passwordHash: "!",
      })),
    )
    .onConflictDoNothing()
    .returning({ id: users.id });
  const students = [...(d.studentId ? [d.studentId] : []), ...takers.map((t) => t.id)];
  const paper = (await loadPaper(tx, testId))!;
  const questionIds = paper.sections.flatMap((s) => s.questions.map((q) => ({ id: q.id, question: q.question })));
  // Each sitting: which questions they got right, wrong or left (by index in the paper).
  const patterns: ("right" | "wrong" | "left")[][] = [
    ["right", "right", "right", "right", "wrong", "right", "right", "left", "right"],
    ["right", "right", "right", "right", "right", "right", "right", "right", "right"],
    ["right", "wrong", "left", "right", "right", "left", "right", "wrong", "left"],
    ["right", "right", "right", "right", "wrong", "right", "right", "left", "right"],
    ["wrong", "left", "left", "right", "left", "wrong", "right", "left", "left"],
  ];
  const startedAt = new Date(d.now - 2 * DAY - 2 * 60 * MINUTE);
  const placed: { id: string; score: number }[] = [];
  for (const [i, studentId] of students.entries()) {
    const [attempt] = await tx
      .insert(attempts)
      // A sitting carries its test's institute, which row-level security reads on that institute's domain.
      .values({
        testId,
        studentId,
        centerId: d.centerId,
        startedAt,
        deadline: new Date(startedAt.getTime() + 30 * MINUTE),
      })
      .returning({ id: attempts.id });
    const answers = new Map<string, AttemptAnswer>();
    questionIds.forEach(({ id, question }, q) => {
      const how = patterns[i % patterns.length][q] ?? "left";
      if (how === "left") return;
      const key = question.answer;
      if (question.type === "numerical") {
        const value = typeof key === "number" ? key : "value" in (key as object) ? (key as { value: number }).value : 0;
        answers.set(id, how === "right" ? String(value) : String(value + 7));
      } else answers.set(id, how === "right" ? (key as number) : ((key as number) + 1) % 4);
    });
    let seq = 0;
    let at = startedAt.getTime();
    for (const [questionId, answer] of answers) {
      at += 90_000;
      await tx
        .insert(attemptEvents)
        .values({ attemptId: attempt.id, type: "visited", questionId, at: new Date(at - 80_000) });
      await tx.insert(attemptResponses).values({
        attemptId: attempt.id,
        questionId,
        answer: JSON.stringify(answer),
        seq: ++seq,
        savedAt: new Date(at),
      });
    }
    const submittedAt = new Date(Math.min(at + 60_000, startedAt.getTime() + 30 * MINUTE));
    const score = scoreAttempt(scorableSections(paper, new Map()), answers);
    const result = { ...score, questions: score.questions.map((q) => ({ ...q, seconds: 80 })) };
    await tx
      .update(attempts)
      .set({
        submittedAt,
        submittedBy: "student",
        lastSeq: seq,
        loggedEvents: answers.size,
        score: Math.round(score.score * 100),
        result,
      })
      .where(eq(attempts.id, attempt.id));
    placed.push({ id: attempt.id, score: score.score });
  }
  const ranks = standings(placed);
  for (const { id } of placed) {
    const s = ranks.get(id)!;
    await tx
      .update(attempts)
      .set({ rank: s.rank, percentile: s.percentile, takers: s.takers })
      .where(eq(attempts.id, id));
  }
  await tx
    .update(mockTests)
    .set({ rankedAt: new Date(d.now - 2 * DAY) })
    .where(eq(mockTests.contentId, testId));
  if (d.studentId)
    await tx.insert(enrollments).values({ studentId: d.studentId, contentId: testId }).onConflictDoNothing();
}
