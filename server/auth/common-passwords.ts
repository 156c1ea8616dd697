/**
 * Passwords that appear at the top of every breach corpus (and their obvious variants). A
 * password on this list is refused at registration whatever its length.
 */
const LIST = `
123456 123456789 12345678 password qwerty123 qwerty1 111111 12345 1234567 123123 1234567890 000000
abc123 password1 iloveyou 1q2w3e4r 1q2w3e4r5t qwertyuiop 123321 654321 666666 121212 112233 987654321
555555 7777777 88888888 11111111 00000000 12341234 11223344 123qwe 123abc qwe123 zxcvbnm asdfghjkl
qwerty qwertyui asdfgh zxcvbn 1qaz2wsx 1qaz2wsx3edc qazwsx qazwsxedc passw0rd p@ssw0rd p@ssword
password123 password12 password1234 passwords pass1234 admin admin123 admin1234 administrator root
toor welcome welcome1 welcome123 letmein letmein1 monkey dragon master master123 sunshine princess
football baseball basketball soccer cricket hockey superman batman spiderman starwars pokemon
trustno1 shadow michael jennifer jordan23 hunter2 hunter123 freedom whatever ninja mustang access
flower hello123 hello1234 loveyou lovely iloveyou1 iloveyou123 charlie donald computer internet
secret secret123 login login123 changeme changeme123 default guest guest123 test test123 test1234
testing tester qwerty12 qwerty1234 qwerty12345 a1b2c3d4 aa123456 abcd1234 abcdef abcdefg abcdefgh
1234qwer q1w2e3r4 q1w2e3r4t5 zaq12wsx zaq1zaq1 google facebook linkedin yahoo microsoft apple
samsung nokia india123 india@123 bharat mumbai delhi kolkata chennai bangalore hyderabad pune
krishna ganesh shivaji sachin sachin10 dhoni virat kohli india1234 jaihind jaishreeram omnamahshivaya
pathshala pathshala123 student student123 teacher teacher123 school school123 college college123
education jee2025 neet2025 jee2026 neet2026 12qwaszx 147258369 159753 159357 741852963 789456123
987654 246810 135790 1122334455 9876543210 0987654321 123654 1234512345 0123456789 01234567 11112222
aaaaaa aaaaaaaa asdf1234 asdfasdf qweasd qweasdzxc 1234abcd iloveu mylove lovers babygirl angel
michelle jessica ashley daniel thomas robert andrew joshua matthew anthony william summer winter
orange banana cookie chocolate pepper ginger maggie buster tigger soccer1 killer hannah naruto
`;

const COMMON = new Set(LIST.split(/\s+/).filter(Boolean));

export function isCommonPassword(password: string): boolean {
  const p = password.toLowerCase();
  if (COMMON.has(p)) return true;
  // One character repeated, or a plain run of digits, is as guessable as anything on the list.
  if (/^(.)\1+$/.test(p)) return true;
  if (/^\d+$/.test(p) && isRun(p)) return true;
  // "password!" and "password2025" are the list with decoration.
  const stripped = p.replace(/[\d!@#$%^&*.\-_]+$/, "");
  return stripped !== p && stripped.length >= 4 && COMMON.has(stripped);
}

function isRun(digits: string): boolean {
  let up = true;
  let down = true;
  for (let i = 1; i < digits.length; i++) {
    const d = digits.charCodeAt(i) - digits.charCodeAt(i - 1);
    if (d !== 1 && d !== -9) up = false;
    if (d !== -1 && d !== 9) down = false;
  }
  return up || down;
}
