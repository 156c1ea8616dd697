/** A receipt's printable copies: the A4 PDF and the 80 mm roll for a front-desk thermal printer. */
export function ReceiptPdfLinks({ receiptId, number }: { receiptId: string; number: string }) {
  const href = `/api/fee-receipts/${receiptId}/pdf`;
  const link = "text-primary underline-offset-4 hover:underline";
  return (
    <span className="flex gap-2 text-sm">
      <a href={href} target="_blank" rel="noreferrer" className={link} aria-label={`PDF of receipt ${number}`}>
        PDF
      </a>
      <a
        href={`${href}?format=thermal`}
        target="_blank"
        rel="noreferrer"
        className={link}
        aria-label={`Thermal print of receipt ${number}`}
      >
        Thermal
      </a>
    </span>
  );
}
