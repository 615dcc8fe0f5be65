/** The report buttons' flag, drawn the same by the server (link page) and the dialog (order page). */
export function ReportIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M5 21V4 M5 4h11l-2 4 2 4H5" />
    </svg>
  );
}
