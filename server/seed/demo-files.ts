import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

/** A real, multi-page PDF for the demo creator: a JEE physics formula sheet, made with pdf-lib. */
export async function makeDemoPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle("JEE Main Physics: Rotational Motion Formula Sheet");
  doc.setAuthor("Rahul Verma (Pathshala demo)");
  doc.setCreationDate(new Date("2025-01-01T00:00:00Z"));
  doc.setModificationDate(new Date("2025-01-01T00:00:00Z"));
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const ink = rgb(0.07, 0.09, 0.16);
  const accent = rgb(0.26, 0.22, 0.79);

  const sections: [string, string[]][] = [
    [
      "Kinematics of rotation",
      [
        "w = d(theta)/dt,  alpha = dw/dt",
        "w = w0 + alpha t",
        "theta = w0 t + (1/2) alpha t^2",
        "w^2 = w0^2 + 2 alpha theta",
        "v = w r,  a_t = alpha r,  a_c = w^2 r",
      ],
    ],
    [
      "Moment of inertia",
      [
        "Ring (axis): I = M R^2",
        "Disc (axis): I = (1/2) M R^2",
        "Solid sphere: I = (2/5) M R^2",
        "Hollow sphere: I = (2/3) M R^2",
        "Rod (centre): I = (1/12) M L^2",
        "Parallel axes: I = I_cm + M d^2",
        "Perpendicular axes: I_z = I_x + I_y",
      ],
    ],
    [
      "Torque and angular momentum",
      [
        "tau = r x F,  |tau| = r F sin(phi)",
        "tau = I alpha",
        "L = I w,  tau = dL/dt",
        "No external torque: I1 w1 = I2 w2",
      ],
    ],
    [
      "Rolling without slipping",
      [
        "v_cm = w R",
        "KE = (1/2) M v^2 (1 + k^2/R^2)",
        "On an incline: a = g sin(theta) / (1 + k^2/R^2)",
        "Friction does no work in pure rolling",
      ],
    ],
  ];

  let page = doc.addPage([595, 842]);
  page.drawRectangle({ x: 0, y: 762, width: 595, height: 80, color: accent });
  page.drawText("Rotational Motion", { x: 48, y: 800, size: 26, font: bold, color: rgb(1, 1, 1) });
  page.drawText("JEE Main formula sheet  -  Pathshala demo content", {
    x: 48,
    y: 778,
    size: 12,
    font: regular,
    color: rgb(0.88, 0.9, 1),
  });
  let y = 720;
  let pageNo = 1;
  const footer = () =>
    page.drawText(`Page ${pageNo}`, { x: 520, y: 30, size: 9, font: regular, color: rgb(0.4, 0.45, 0.55) });
  for (const [heading, lines] of sections) {
    if (y < 120 + lines.length * 22) {
      footer();
      page = doc.addPage([595, 842]);
      pageNo += 1;
      y = 780;
    }
    page.drawText(heading, { x: 48, y, size: 16, font: bold, color: accent });
    y -= 28;
    for (const line of lines) {
      page.drawText(`-  ${line}`, { x: 60, y, size: 12, font: regular, color: ink });
      y -= 22;
    }
    y -= 16;
  }
  footer();

  // A second page of practice problems.
  page = doc.addPage([595, 842]);
  pageNo += 1;
  page.drawText("Practice problems", { x: 48, y: 780, size: 18, font: bold, color: accent });
  const problems = [
    "1. A disc of mass 2 kg and radius 0.5 m spins at 10 rad/s. Find its angular momentum.",
    "2. A solid sphere rolls down a 30 degree incline without slipping. Find its acceleration.",
    "3. A rod of length 1 m is pivoted at one end. Find its moment of inertia about the pivot.",
    "4. A skater pulls in her arms and I halves. By what factor does her angular speed change?",
    "5. A ring and a disc of equal mass and radius roll with the same speed. Compare their KE.",
  ];
  y = 740;
  for (const problem of problems) {
    page.drawText(problem, { x: 48, y, size: 11, font: regular, color: ink, maxWidth: 500 });
    y -= 40;
  }
  page.drawText("Answers: 1) 2.5 kg m^2/s  2) 3.5 m/s^2  3) M L^2/3  4) doubles  5) ring : disc = 4 : 3", {
    x: 48,
    y: y - 10,
    size: 10,
    font: regular,
    color: rgb(0.4, 0.45, 0.55),
  });
  footer();
  return doc.save();
}

/** The demo lesson video (a real H.264/MP4, made by scripts/make-demo-video.ts). */
export async function demoVideo(): Promise<Uint8Array> {
  const { DEMO_VIDEO_MP4_BASE64 } = await import("./demo-video.ts");
  return Uint8Array.from(Buffer.from(DEMO_VIDEO_MP4_BASE64, "base64"));
}
