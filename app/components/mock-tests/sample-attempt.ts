import type { AttemptView } from "#common/mock-tests/attempt.ts";
import { NTA_MARKING } from "#common/mock-tests/marking.ts";

/**
 * A small JEE Main-like attempt for the screen's render checks: two subjects, each with a
 * single-correct Section A and a numerical Section B, LaTeX in text and options, one question with a
 * Hindi version. Three hours from the server's now.
 */
export function sampleAttempt(over: Partial<AttemptView> = {}): AttemptView {
  return {
    _id: "att_sample",
    testId: "test_sample",
    title: "JEE Main Full Mock Test 1",
    mode: "cbt",
    durationMinutes: 180,
    deadline: "2026-11-26T12:00:00.000Z",
    serverNow: "2026-11-26T09:00:00.000Z",
    status: "in-progress",
    lastSeq: 0,
    alertMinutes: [30, 15, 5],
    candidate: { name: "Aarav Sharma", avatarUrl: null },
    responses: {},
    sections: [
      {
        name: "Physics Section A",
        marking: { single: NTA_MARKING },
        questions: [
          {
            _id: "q_phy_1",
            type: "single",
            text: "A ball is thrown vertically upward with speed $u$. The maximum height it reaches is",
            options: ["$\\dfrac{u^2}{2g}$", "$\\dfrac{u^2}{g}$", "$\\dfrac{2u^2}{g}$", "$\\dfrac{u}{2g}$"],
            hindi: {
              text: "एक गेंद को वेग $u$ से ऊर्ध्वाधर ऊपर फेंका जाता है। यह अधिकतम कितनी ऊँचाई तक पहुँचती है?",
              options: ["$\\dfrac{u^2}{2g}$", "$\\dfrac{u^2}{g}$", "$\\dfrac{2u^2}{g}$", "$\\dfrac{u}{2g}$"],
            },
          },
          {
            _id: "q_phy_2",
            type: "single",
            text: "The dimensional formula of Planck's constant $h$ is",
            options: ["$[ML^2T^{-1}]$", "$[MLT^{-1}]$", "$[ML^2T^{-2}]$", "$[M^0L^0T^0]$"],
          },
          {
            _id: "q_phy_3",
            type: "single",
            text: "Two resistors of $4\\,\\Omega$ and $12\\,\\Omega$ are joined in parallel. Their equivalent resistance is",
            options: ["$3\\,\\Omega$", "$8\\,\\Omega$", "$16\\,\\Omega$", "$48\\,\\Omega$"],
          },
        ],
      },
      {
        name: "Physics Section B",
        marking: { numerical: NTA_MARKING },
        questions: [
          {
            _id: "q_phy_4",
            type: "numerical",
            text: "A body of mass $2\\,\\text{kg}$ moves with $v = 3\\,\\text{m/s}$. Its kinetic energy in joules is:",
          },
          {
            _id: "q_phy_5",
            type: "numerical",
            text: "The focal length (in cm) of a concave mirror of radius of curvature $40\\,\\text{cm}$ is:\n\n$$f = \\frac{R}{2}$$",
          },
        ],
      },
      {
        name: "Chemistry Section A",
        marking: { single: NTA_MARKING },
        questions: [
          {
            _id: "q_chem_1",
            type: "single",
            text: "The hybridisation of carbon in $\\mathrm{CH_4}$ is",
            options: ["$sp$", "$sp^2$", "$sp^3$", "$dsp^2$"],
          },
          {
            _id: "q_chem_2",
            type: "single",
            text: "Which of these has the highest first ionisation enthalpy?",
            options: ["Na", "Mg", "Al", "Ne"],
          },
        ],
      },
      {
        name: "Chemistry Section B",
        marking: { numerical: NTA_MARKING },
        questions: [
          {
            _id: "q_chem_3",
            type: "numerical",
            text: "The number of moles in $36\\,\\text{g}$ of water is:",
          },
        ],
      },
    ],
    ...over,
  };
}
