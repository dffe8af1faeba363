-- CHKSUM: Internet checksum engine (rtl/chksum/README.md is the contract).
--
-- An AHB master (AMBA 2.0, 32-bit) that reads a buffer by incrementing word
-- bursts and sums it as RFC 1071 16-bit one's-complement words, with an APB
-- slave register interface and a one-clock interrupt pulse. One clock
-- (clk, rising edge), synchronous active-low reset rstn. Written for leon3vp.
--
-- How the sum works on aligned words: the buffer's 16-bit words pair bytes
-- from ADDR, but the bus delivers memory-aligned words. The one's-complement
-- sum commutes with a byte swap (RFC 1071 §2(B)), so the engine adds the two
-- memory-aligned halves of each masked word and, for an odd ADDR, swaps the
-- running sum once at START (the initial SUM) and once at the end. SUM reads
-- swap on the fly in between, so the running value is always in buffer order.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity chksum is
  port (
    clk     : in  std_logic;
    rstn    : in  std_logic;
    -- APB slave (the bridge decodes the slot; paddr[7:2] selects the register)
    psel    : in  std_logic;
    penable : in  std_logic;
    paddr   : in  std_logic_vector(31 downto 0);
    pwrite  : in  std_logic;
    pwdata  : in  std_logic_vector(31 downto 0);
    prdata  : out std_logic_vector(31 downto 0);
    -- AHB master
    hbusreq : out std_logic;
    hgrant  : in  std_logic;
    hready  : in  std_logic;
    hresp   : in  std_logic_vector(1 downto 0);
    hrdata  : in  std_logic_vector(31 downto 0);
    htrans  : out std_logic_vector(1 downto 0);
    haddr   : out std_logic_vector(31 downto 0);
    hwrite  : out std_logic;
    hsize   : out std_logic_vector(2 downto 0);
    hburst  : out std_logic_vector(2 downto 0);
    hprot   : out std_logic_vector(3 downto 0);
    hwdata  : out std_logic_vector(31 downto 0);
    -- interrupt: one-clock pulse when DONE is set and IE = 1
    irq     : out std_logic
  );
end entity;

architecture rtl of chksum is
  constant MAX_BURST : natural := 16;
  constant T_IDLE   : std_logic_vector(1 downto 0) := "00";
  constant T_NONSEQ : std_logic_vector(1 downto 0) := "10";
  constant T_SEQ    : std_logic_vector(1 downto 0) := "11";
  constant R_OKAY   : std_logic_vector(1 downto 0) := "00";

  -- S_IDLE: waiting for START. S_ARM: the clock after START (LEN 0 ends
  -- here). S_DMA: bursts running. S_FIN: the clock after the last data beat
  -- (or the ERROR response): DONE, IRQ and the final swap.
  type state_t is (S_IDLE, S_ARM, S_DMA, S_FIN);

  type regs_t is record
    state   : state_t;
    ie      : std_logic;
    done    : std_logic;
    err     : std_logic;
    addr    : unsigned(31 downto 0);  -- ADDR register
    len     : unsigned(15 downto 0);  -- LEN register
    acc     : unsigned(15 downto 0);  -- running sum, memory lane order
    swap    : std_logic;              -- acc is byte-swapped (odd ADDR, while busy)
    -- buffer bounds for the byte masks
    first_w : unsigned(29 downto 0);  -- first and last covering word
    last_w  : unsigned(29 downto 0);
    first_b : unsigned(1 downto 0);   -- first valid byte lane in first_w
    last_b  : unsigned(1 downto 0);   -- last valid byte lane in last_w
    wrap    : std_logic;              -- the buffer runs past 0xFFFFFFFF: ERR at the end
    -- address side
    a_word  : unsigned(29 downto 0);  -- next word to put on the bus
    a_left  : unsigned(15 downto 0);  -- words not yet put on the bus
    b_left  : unsigned(4 downto 0);   -- words left in the current burst
    htrans  : std_logic_vector(1 downto 0);
    haddr   : unsigned(31 downto 0);
    hbusreq : std_logic;
    -- data side
    d_act   : std_logic;              -- a data phase of ours is under way
    d_word  : unsigned(29 downto 0);  -- its word address
    irq     : std_logic;
  end record;

  constant RESET_REGS : regs_t := (
    state => S_IDLE, ie => '0', done => '0', err => '0',
    addr => (others => '0'), len => (others => '0'), acc => (others => '0'), swap => '0',
    first_w => (others => '0'), last_w => (others => '0'),
    first_b => (others => '0'), last_b => (others => '0'), wrap => '0',
    a_word => (others => '0'), a_left => (others => '0'), b_left => (others => '0'),
    htrans => T_IDLE, haddr => (others => '0'), hbusreq => '0',
    d_act => '0', d_word => (others => '0'), irq => '0');

  signal r, rin : regs_t;

  type word_array is array (0 to 7) of std_logic_vector(31 downto 0);

  -- One's-complement 16-bit add with end-around carry. a + b <= 0x1FFFE, so
  -- adding the carry back never carries again.
  function add1c(a, b : unsigned(15 downto 0)) return unsigned is
    variable s : unsigned(16 downto 0);
  begin
    s := ('0' & a) + ('0' & b);
    if s(16) = '1' then
      return s(15 downto 0) + 1;
    end if;
    return s(15 downto 0);
  end function;

  function swap16(v : unsigned(15 downto 0)) return unsigned is
  begin
    return v(7 downto 0) & v(15 downto 8);
  end function;

  -- Words in the next burst: at most 16, at most what is left, and never
  -- past the next 1 KiB boundary (256 words).
  function burst_len(word : unsigned(29 downto 0); left : unsigned(15 downto 0))
    return unsigned is
    variable to_kib : unsigned(8 downto 0);
    variable n      : unsigned(15 downto 0);
  begin
    to_kib := to_unsigned(256, 9) - ('0' & word(7 downto 0));
    n := left;
    if n > MAX_BURST then
      n := to_unsigned(MAX_BURST, 16);
    end if;
    if n > resize(to_kib, 16) then
      n := resize(to_kib, 16);
    end if;
    return n(4 downto 0);
  end function;
begin

  comb : process (r, psel, penable, paddr, pwrite, pwdata, hgrant, hready, hresp, hrdata)
    variable v       : regs_t;
    variable rd      : std_logic_vector(31 downto 0);
    variable wr      : boolean;
    variable endaddr : unsigned(32 downto 0);  -- with the carry out of 32 bits
    variable last_w  : unsigned(29 downto 0);  -- last covering word (START)
    variable last_b  : unsigned(1 downto 0);
    variable data    : std_logic_vector(31 downto 0);
    variable keep    : std_logic_vector(3 downto 0);
    variable sum_out : unsigned(15 downto 0);
    variable blen    : unsigned(4 downto 0);
    variable busy    : std_logic;
    variable regs    : word_array;
    variable reg     : natural range 0 to 7;
    variable hit     : boolean;
  begin
    v := r;
    v.irq := '0';

    -- SUM as software sees it: in buffer byte order.
    if r.swap = '1' then
      sum_out := swap16(r.acc);
    else
      sum_out := r.acc;
    end if;

    ---------------------------------------------------------------- APB read
    -- No `case` with `when others` here: GHDL 2.0.0's Verilog writer emits
    -- such a case (when its choices do not cover every value) without a
    -- default, which Verilator turns into a latch: unmapped offsets read the
    -- last value read, and writes to them repeated the last decoded write.
    -- An array read and separate `if`s become plain multiplexers.
    busy := '0';
    if r.state /= S_IDLE then
      busy := '1';
    end if;
    regs := (0 => (1 => r.ie, others => '0'),
             1 => (0 => busy, 1 => r.done, 2 => r.err, others => '0'),
             2 => std_logic_vector(r.addr),
             3 => x"0000" & std_logic_vector(r.len),
             4 => std_logic_vector(not sum_out) & std_logic_vector(sum_out),
             5 => x"000000" & std_logic_vector(to_unsigned(MAX_BURST, 8)),
             others => (others => '0'));
    reg := to_integer(unsigned(paddr(4 downto 2)));
    hit := paddr(7 downto 5) = "000";
    rd := regs(reg);
    if not hit then
      rd := (others => '0');
    end if;

    --------------------------------------------------------------- APB write
    wr := psel = '1' and penable = '1' and pwrite = '1' and hit;
    if wr and reg = 0 then
      v.ie := pwdata(1);
      if pwdata(0) = '1' and r.state = S_IDLE then
        -- START: latch the bounds of the covering words; a new operation
        -- clears DONE and ERR. A buffer that runs past 0xFFFFFFFF (a carry
        -- out of ADDR + LEN - 1) ends at the top word, whole, and the
        -- operation then ends with ERR: no access wraps to 0x00000000.
        endaddr := resize(r.addr, 33) + resize(r.len, 33) - 1;
        last_w := endaddr(31 downto 2);
        last_b := endaddr(1 downto 0);
        v.wrap := '0';
        if endaddr(32) = '1' and r.len /= 0 then
          last_w := (others => '1');
          last_b := (others => '1');
          v.wrap := '1';
        end if;
        v.state := S_ARM;
        v.done := '0';
        v.err := '0';
        v.first_w := r.addr(31 downto 2);
        v.last_w := last_w;
        v.first_b := r.addr(1 downto 0);
        v.last_b := last_b;
        v.a_word := r.addr(31 downto 2);
        v.a_left := resize(last_w - r.addr(31 downto 2) + 1, 16);
        if r.len = 0 then
          v.a_left := (others => '0');
        end if;
        v.b_left := (others => '0');
        v.swap := r.addr(0);
        if r.addr(0) = '1' then
          v.acc := swap16(r.acc);
        end if;
      end if;
    end if;
    if wr and reg = 1 then
      if pwdata(1) = '1' then v.done := '0'; end if;
      if pwdata(2) = '1' then v.err := '0'; end if;
    end if;
    if wr and reg = 2 and r.state = S_IDLE then
      v.addr := unsigned(pwdata);
    end if;
    if wr and reg = 3 and r.state = S_IDLE then
      v.len := unsigned(pwdata(15 downto 0));
    end if;
    if wr and reg = 4 and r.state = S_IDLE then
      v.acc := unsigned(pwdata(15 downto 0));
    end if;

    ----------------------------------------------------------------- engine
    case r.state is
      when S_IDLE => null;

      when S_ARM =>
        if r.a_left = 0 then
          -- LEN 0: no bus access, DONE one clock after START, SUM unchanged
          v.state := S_IDLE;
          v.done := '1';
          v.irq := r.ie;
          if r.swap = '1' then
            v.acc := swap16(r.acc);
            v.swap := '0';
          end if;
        else
          v.state := S_DMA;
          v.hbusreq := '1';
          -- the first address phase may start now if the grant is parked here
          if hready = '1' and hgrant = '1' then
            blen := burst_len(r.a_word, r.a_left);
            v.htrans := T_NONSEQ;
            v.haddr := r.a_word & "00";
            v.a_word := r.a_word + 1;
            v.a_left := r.a_left - 1;
            v.b_left := blen - 1;
            if r.a_left = 1 then v.hbusreq := '0'; end if;
          end if;
        end if;

      when S_DMA =>
        if r.d_act = '1' and hresp /= R_OKAY then
          -- ERROR (RETRY and SPLIT are not expected from memory; they end the
          -- operation the same way). First cycle (hready low): cancel the
          -- pending address phase; second cycle: the operation ends.
          v.htrans := T_IDLE;
          v.hbusreq := '0';
          if hready = '1' then
            v.d_act := '0';
            v.err := '1';
            v.state := S_FIN;
          end if;
        elsif hready = '1' then
          -- data phase ends: add the word, bytes outside the buffer masked off
          if r.d_act = '1' then
            keep := "1111";
            if r.d_word = r.first_w then
              for k in 0 to 3 loop
                if k < to_integer(r.first_b) then keep(3 - k) := '0'; end if;
              end loop;
            end if;
            if r.d_word = r.last_w then
              for k in 0 to 3 loop
                if k > to_integer(r.last_b) then keep(3 - k) := '0'; end if;
              end loop;
            end if;
            for k in 0 to 3 loop
              if keep(k) = '1' then
                data(8 * k + 7 downto 8 * k) := hrdata(8 * k + 7 downto 8 * k);
              else
                data(8 * k + 7 downto 8 * k) := (others => '0');
              end if;
            end loop;
            v.acc := add1c(add1c(r.acc, unsigned(data(31 downto 16))),
                           unsigned(data(15 downto 0)));
            if r.d_word = r.last_w then
              v.state := S_FIN;
            end if;
          end if;
          -- address phase ends: its data phase follows
          v.d_act := r.htrans(1);
          v.d_word := r.haddr(31 downto 2);
          -- next address phase: ours if granted now. SEQ continues a burst
          -- whose previous beat was just accepted; a new burst (NONSEQ) starts
          -- only when no data phase is under way any more, which leaves one
          -- idle clock between bursts.
          v.htrans := T_IDLE;
          if hgrant = '1' and r.a_left /= 0 then
            if r.htrans /= T_IDLE and r.b_left /= 0 then
              v.htrans := T_SEQ;
              v.b_left := r.b_left - 1;
            elsif r.htrans = T_IDLE then
              blen := burst_len(r.a_word, r.a_left);
              v.htrans := T_NONSEQ;
              v.b_left := blen - 1;
            end if;
            if v.htrans /= T_IDLE then
              v.haddr := r.a_word & "00";
              v.a_word := r.a_word + 1;
              v.a_left := r.a_left - 1;
              if r.a_left = 1 then v.hbusreq := '0'; end if;
            end if;
          end if;
        end if;

      when S_FIN =>
        v.state := S_IDLE;
        v.done := '1';
        if r.wrap = '1' then
          v.err := '1';  -- stopped at the top of the address space
        end if;
        v.wrap := '0';
        v.irq := r.ie;
        v.htrans := T_IDLE;
        v.hbusreq := '0';
        v.d_act := '0';
        if r.swap = '1' then
          v.acc := swap16(r.acc);
          v.swap := '0';
        end if;
    end case;

    if rstn = '0' then
      v := RESET_REGS;
    end if;
    rin <= v;

    prdata <= rd;
  end process;

  seq : process (clk)
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process;

  hbusreq <= r.hbusreq;
  htrans  <= r.htrans;
  haddr   <= std_logic_vector(r.haddr);
  hwrite  <= '0';
  hsize   <= "010";       -- word
  hburst  <= "001";       -- INCR: bursts of any length up to 16
  hprot   <= "0011";      -- data, privileged
  hwdata  <= (others => '0');
  irq     <= r.irq;
end architecture;
