/**
 * The QR code of the pairing link, as rows of modules ('1' dark), for the
 * pairing panel to draw as SVG rectangles: the page gets no markup to insert.
 * Error correction M: a phone camera reads it off a screen at an angle.
 */
import qrcode from 'qrcode-generator';

export function qrRows(text: string): string[] {
  const code = qrcode(0, 'M');
  code.addData(text, 'Byte');
  code.make();
  const size = code.getModuleCount();
  const rows: string[] = [];
  for (let row = 0; row < size; row++) {
    let line = '';
    for (let column = 0; column < size; column++) line += code.isDark(row, column) ? '1' : '0';
    rows.push(line);
  }
  return rows;
}
