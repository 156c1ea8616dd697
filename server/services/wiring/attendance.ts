import type { Db } from "../../db/types.ts";
import type { SiteLinks } from "../../messages/links.ts";
import { RegisterService } from "../attendance/register.ts";
import { CorrectionService } from "../attendance/corrections.ts";
import { QrService } from "../attendance/qr.ts";
import { OnlineService } from "../attendance/online.ts";

/** Attendance registers (issue 41 §3, decision 0044): roll-call, corrections, QR self-marking, online classes. */
export interface AttendanceServices {
  registers: RegisterService;
  corrections: CorrectionService;
  qr: QrService;
  online: OnlineService;
}

/** `now` is the server's clock; tests give one they move. */
export function createAttendance(db: Db, links: SiteLinks, now: () => number = Date.now): AttendanceServices {
  return {
    registers: new RegisterService({ db, now }),
    corrections: new CorrectionService({ db, now }),
    qr: new QrService({ db, links, now }),
    online: new OnlineService({ db, now }),
  };
}
