-- Self-checking GHDL testbench of chksum (CTest rtl.chksum.ghdl).
--
-- An AHB slave memory with configurable wait states, a two-cycle ERROR
-- response in an address range and a grant that can be withdrawn, plus a
-- protocol checker: word reads only, NONSEQ then SEQ with +4, at most 16
-- beats, no 1 KiB crossing, only the words covering the buffer, each once.
-- Directed cases are compared with a reference checksum computed here
-- byte by byte (independent of the engine's word-and-swap method), and DONE
-- must come exactly one clock after the last data beat. Prints PASS.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_chksum is
end entity;

architecture tb of tb_chksum is
  constant PERIOD  : time := 25 ns;   -- 40 MHz
  constant MEMBASE : unsigned(31 downto 0) := x"40000000";
  -- memory image: 0x40002000.. all 0xFF, 0x40002400.. all zero, the rest
  -- pseudo-random; reads in [ERR_LO, ERR_HI) get an ERROR response
  constant ERR_LO  : unsigned(31 downto 0) := x"40003000";
  constant ERR_HI  : unsigned(31 downto 0) := x"40003100";
  constant TOPW    : unsigned(31 downto 0) := x"3FFFFFFF";  -- last word address >> 2

  signal clk     : std_logic := '0';
  signal rstn    : std_logic := '0';
  signal psel, penable, pwrite : std_logic := '0';
  signal paddr, pwdata, prdata : std_logic_vector(31 downto 0) := (others => '0');
  signal hbusreq, hgrant, hready, hwrite, irq : std_logic;
  signal hresp, htrans : std_logic_vector(1 downto 0);
  signal hrdata, haddr, hwdata : std_logic_vector(31 downto 0);
  signal hsize, hburst : std_logic_vector(2 downto 0);
  signal hprot : std_logic_vector(3 downto 0);

  signal cycle      : natural := 0;
  -- test controls
  signal waits      : natural := 0;      -- wait states per data beat
  signal grant_gap  : boolean := false;  -- withdraw the grant now and then
  signal cov_lo, cov_hi : unsigned(31 downto 0) := (others => '0');  -- covering words
  -- slave observations
  signal reads      : natural := 0;      -- data beats completed
  signal accepted   : natural := 0;      -- address phases accepted
  signal last_beat  : natural := 0;      -- cycle of the last completed beat
  signal proto_err  : natural := 0;      -- protocol violations seen
  signal max_burst  : natural := 0;

  function mem_byte(a : unsigned(31 downto 0)) return unsigned is
    variable h : unsigned(63 downto 0);
  begin
    if a >= x"40002000" and a < x"40002400" then
      return x"FF";
    elsif a >= x"40002400" and a < x"40002800" then
      return x"00";
    end if;
    h := a * unsigned'(x"9E3779B1");
    return h(20 downto 13) xor h(7 downto 0);
  end function;

  -- RFC 1071 by the book: big-endian pairs from the start, carries kept in a
  -- wide accumulator and folded at the end.
  function ref_sum(addr : unsigned(31 downto 0); len : natural; init : unsigned(15 downto 0))
    return unsigned is
    variable acc : unsigned(31 downto 0) := resize(init, 32);
    variable w   : unsigned(15 downto 0);
  begin
    for i in 0 to (len + 1) / 2 - 1 loop
      w(15 downto 8) := mem_byte(addr + 2 * i);
      if 2 * i + 1 < len then
        w(7 downto 0) := mem_byte(addr + 2 * i + 1);
      else
        w(7 downto 0) := x"00";
      end if;
      acc := acc + w;
    end loop;
    while acc(31 downto 16) /= 0 loop
      acc := resize(acc(15 downto 0), 32) + acc(31 downto 16);
    end loop;
    return acc(15 downto 0);
  end function;
begin
  clk <= not clk after PERIOD / 2;

  dut : entity work.chksum
    port map (clk => clk, rstn => rstn, psel => psel, penable => penable, paddr => paddr,
              pwrite => pwrite, pwdata => pwdata, prdata => prdata,
              hbusreq => hbusreq, hgrant => hgrant, hready => hready, hresp => hresp,
              hrdata => hrdata, htrans => htrans, haddr => haddr, hwrite => hwrite,
              hsize => hsize, hburst => hburst, hprot => hprot, hwdata => hwdata, irq => irq);

  count : process (clk)
  begin
    if rising_edge(clk) then
      cycle <= cycle + 1;
    end if;
  end process;

  -- Arbiter: the engine is the only master; with grant_gap the grant is
  -- taken away for two clocks out of every seven.
  hgrant <= '0' when grant_gap and (cycle mod 7) >= 5 else '1';

  -- AHB slave memory with registered data-phase outputs and the checker.
  slave : process (clk)
    variable d_pend  : boolean := false;
    variable d_addr  : unsigned(31 downto 0);
    variable d_err   : boolean := false;
    variable wcnt    : natural := 0;
    variable err_ph  : natural := 0;     -- ERROR response: cycle 1 or 2
    variable beats   : natural := 0;
    variable expect  : unsigned(31 downto 0) := (others => '0');
    variable a       : unsigned(31 downto 0);
    variable rdy     : std_logic := '1';
    variable w       : std_logic_vector(31 downto 0);
  begin
    if rising_edge(clk) then
      if rstn = '0' then
        rdy := '1';
        d_pend := false;
        err_ph := 0;
        hready <= '1';
        hresp <= "00";
        hrdata <= (others => '0');
      else
        if rdy = '1' then
          -- a data phase completes now
          if d_pend and not d_err then
            reads <= reads + 1;
            last_beat <= cycle;
          end if;
          d_pend := false;
          -- the address phase in this cycle is accepted
          a := unsigned(haddr);
          if htrans = "10" or htrans = "11" then
            if hwrite /= '0' or hsize /= "010" or a(1 downto 0) /= "00" then
              report "slave: not a word read at " & to_hstring(a) severity error;
              proto_err <= proto_err + 1;
            end if;
            if a < cov_lo or a > cov_hi or (a /= expect and not (htrans = "10" and a = cov_lo))
            then
              report "slave: read of " & to_hstring(a) & ", expected " & to_hstring(expect)
                severity error;
              proto_err <= proto_err + 1;
            end if;
            if htrans = "10" then
              beats := 1;
            else
              beats := beats + 1;
              if a(9 downto 0) = 0 then
                report "slave: burst crosses 1 KiB at " & to_hstring(a) severity error;
                proto_err <= proto_err + 1;
              end if;
            end if;
            if beats > max_burst then
              max_burst <= beats;
            end if;
            if beats > 16 then
              report "slave: burst longer than 16 beats" severity error;
              proto_err <= proto_err + 1;
            end if;
            expect := a + 4;
            accepted <= accepted + 1;
            d_pend := true;
            d_addr := a;
            d_err := a >= ERR_LO and a < ERR_HI;
            wcnt := waits;
          elsif htrans = "01" then
            report "slave: BUSY transfer" severity error;
            proto_err <= proto_err + 1;
          end if;
        end if;
        -- outputs for the coming cycle
        rdy := '1';
        hresp <= "00";
        if d_pend then
          if d_err then
            err_ph := err_ph + 1;
            hresp <= "01";
            if err_ph = 1 then
              rdy := '0';
            else
              err_ph := 0;
            end if;
          elsif wcnt > 0 then
            wcnt := wcnt - 1;
            rdy := '0';
          else
            for k in 0 to 3 loop
              w(31 - 8 * k downto 24 - 8 * k) := std_logic_vector(mem_byte(d_addr + k));
            end loop;
            hrdata <= w;
          end if;
        end if;
        hready <= rdy;
      end if;
    end if;
  end process;

  stim : process
    variable rd : std_logic_vector(31 downto 0);
    variable fails : natural := 0;
    variable runs  : natural := 0;

    procedure apb_write(off : natural; val : std_logic_vector(31 downto 0)) is
    begin
      psel <= '1';
      pwrite <= '1';
      paddr <= std_logic_vector(unsigned'(x"80000500") + off);
      pwdata <= val;
      wait until rising_edge(clk);
      penable <= '1';
      wait until rising_edge(clk);
      psel <= '0';
      penable <= '0';
      pwrite <= '0';
    end procedure;

    procedure apb_read(off : natural; val : out std_logic_vector(31 downto 0)) is
    begin
      psel <= '1';
      pwrite <= '0';
      paddr <= std_logic_vector(unsigned'(x"80000500") + off);
      wait until rising_edge(clk);
      penable <= '1';
      wait until rising_edge(clk);
      val := prdata;  -- sampled at the edge that ends the access
      psel <= '0';
      penable <= '0';
    end procedure;

    procedure check(cond : boolean; msg : string) is
    begin
      if not cond then
        report msg severity error;
        fails := fails + 1;
      end if;
    end procedure;

    -- One operation: program, start with IE, wait for the IRQ pulse, check.
    procedure run(addr : unsigned(31 downto 0); len : natural; init : natural;
                  err_expected : boolean := false) is
      variable a       : unsigned(31 downto 0) := addr;
      variable exp     : unsigned(15 downto 0);
      variable start_c : natural;
      variable irq_c   : natural;
      variable reads0  : natural;
      variable acc0    : natural;
      variable nwords  : natural;
      variable end33   : unsigned(32 downto 0);
      variable wraps   : boolean := false;  -- the buffer runs past 0xFFFFFFFF
      variable nbytes  : natural;           -- its bytes up to the top
    begin
      runs := runs + 1;
      if len > 0 then
        end33 := resize(a, 33) + to_unsigned(len, 33) - 1;
        wraps := end33(32) = '1';
        cov_lo <= a(31 downto 2) & "00";
        if wraps then
          -- the engine reads up to the top word, then ends with ERR
          cov_hi <= x"FFFFFFFC";
          nwords := to_integer(TOPW - (a srl 2)) + 1;
          nbytes := to_integer(not a) + 1;
        else
          cov_hi <= (a + len - 1) and x"FFFFFFFC";
          nwords := to_integer(((a + len - 1) srl 2) - (a srl 2)) + 1;
        end if;
      else
        cov_lo <= x"FFFFFFFC";  -- any read is out of range
        cov_hi <= x"00000000";
        nwords := 0;
      end if;
      apb_write(16#08#, std_logic_vector(addr));
      apb_write(16#0C#, std_logic_vector(to_unsigned(len, 32)));
      apb_write(16#10#, std_logic_vector(to_unsigned(init, 32)));
      reads0 := reads;
      acc0 := accepted;
      apb_write(16#00#, x"00000003");  -- START | IE
      start_c := cycle;                -- the edge that took the write (cycle not yet updated)
      wait until rising_edge(clk) and irq = '1' for 200 us;
      check(irq = '1', "no IRQ for addr " & to_hstring(addr) & " len " & integer'image(len));
      irq_c := cycle - 1;              -- the edge that raised irq (and DONE)
      wait until rising_edge(clk);
      check(irq = '0', "IRQ longer than one clock");
      apb_read(16#04#, rd);
      check(rd(1 downto 0) = "10" and (rd(2) = '1') = err_expected,
            "STATUS " & to_hstring(rd) & " for addr " & to_hstring(addr) & " len "
            & integer'image(len));
      if len = 0 then
        check(irq_c = start_c + 1, "LEN 0: DONE not one clock after START");
        check(reads = reads0, "LEN 0: bus reads");
      elsif wraps then
        -- no address phase past the top, DONE as after a last beat, the
        -- bytes up to the top summed
        check(reads - reads0 = nwords and accepted - acc0 = nwords, "past the top: read "
              & integer'image(reads - reads0) & " words in " & integer'image(accepted - acc0)
              & " address phases, not " & integer'image(nwords));
        check(irq_c = last_beat + 1, "past the top: DONE not one clock after the last beat");
        apb_read(16#10#, rd);
        exp := ref_sum(addr, nbytes, to_unsigned(init, 16));
        check(unsigned(rd(15 downto 0)) = exp, "past the top: SUM " & to_hstring(rd)
              & ", expected " & to_hstring(exp));
      elsif err_expected then
        if a < ERR_LO then
          nwords := to_integer((ERR_LO - (a and x"FFFFFFFC")) srl 2);
        else
          nwords := 0;
        end if;
        check(reads - reads0 = nwords, "error: read " & integer'image(reads - reads0)
              & " words, not " & integer'image(nwords));
        -- the transfer after the erroring one is cancelled (IDLE in the
        -- second ERROR cycle): one address phase more than good reads
        check(accepted - acc0 = nwords + 1, "error: " & integer'image(accepted - acc0)
              & " address phases, not " & integer'image(nwords + 1));
      else
        check(irq_c = last_beat + 1, "DONE not one clock after the last data beat (addr "
              & to_hstring(addr) & " len " & integer'image(len) & ")");
        check(reads - reads0 = nwords, "read " & integer'image(reads - reads0) & " words, not "
              & integer'image(nwords));
        apb_read(16#10#, rd);
        exp := ref_sum(addr, len, to_unsigned(init, 16));
        check(unsigned(rd(15 downto 0)) = exp and unsigned(rd(31 downto 16)) = not exp,
              "SUM " & to_hstring(rd) & ", expected " & to_hstring(exp) & " (addr "
              & to_hstring(addr) & " len " & integer'image(len) & " init "
              & integer'image(init) & ")");
      end if;
      if len = 0 then
        apb_read(16#10#, rd);
        check(unsigned(rd(15 downto 0)) = to_unsigned(init, 16), "LEN 0 changed SUM");
      end if;
      apb_write(16#04#, x"00000006");  -- clear DONE and ERR
    end procedure;

    type nat_list is array (natural range <>) of natural;
    constant LENS : nat_list := (0, 1, 2, 3, 4, 5, 6, 7, 8, 63, 64, 65, 66, 127, 1471, 1472, 1500);
  begin
    wait for 3 * PERIOD;
    wait until rising_edge(clk);
    rstn <= '1';
    wait until rising_edge(clk);

    -- registers after reset, INFO, unmapped offsets, LEN's 16 bits
    apb_read(16#04#, rd);
    check(rd = x"00000000", "STATUS after reset");
    apb_read(16#14#, rd);
    check(rd = x"00000010", "INFO");
    apb_read(16#18#, rd);
    check(rd = x"00000000", "unmapped offset");
    apb_write(16#0C#, x"ABCD1234");
    apb_read(16#0C#, rd);
    check(rd = x"00001234", "LEN keeps bits 15:0 only");
    apb_write(16#08#, x"40000123");
    apb_read(16#08#, rd);
    check(rd = x"40000123", "ADDR");
    apb_write(16#10#, x"00001234");
    apb_read(16#10#, rd);
    check(rd = x"EDCB1234", "SUM read: complement in 31:16");

    -- every alignment x a set of lengths; no wait states and initial sum 0,
    -- then 2 wait states and a pseudo-header's sum (the Verilator test covers
    -- every length)
    for wsi in 0 to 1 loop
      waits <= 2 * wsi;
      for al in 0 to 3 loop
        for i in LENS'range loop
          run(MEMBASE + 16#100# + al, LENS(i), wsi * (16#C0A8# + 17 * i));
        end loop;
      end loop;
    end loop;
    waits <= 0;

    -- sums: only zero words -> 0x0000; all 0xFF -> 0xFFFF; 0xFFFF + 1 carries
    run(MEMBASE + 16#2400#, 64, 0);
    run(MEMBASE + 16#2000#, 64, 0);
    run(MEMBASE + 16#2000#, 2, 1);
    run(MEMBASE + 16#2001#, 3, 16#FFFF#);

    -- 1 KiB boundaries: a buffer across one, one starting 4 bytes before one,
    -- a long one (4 KiB, 4 boundaries)
    run(MEMBASE + 16#3F0#, 64, 0);
    run(MEMBASE + 16#3FC#, 40, 0);
    run(MEMBASE + 16#3FD#, 1, 0);
    run(MEMBASE + 16#40E#, 4096, 7);
    check(max_burst = 16, "no 16-beat burst seen");

    -- grant withdrawn mid-burst, with wait states
    grant_gap <= true;
    waits <= 1;
    run(MEMBASE + 16#101#, 1500, 0);
    run(MEMBASE + 16#3E2#, 301, 99);
    grant_gap <= false;
    waits <= 0;

    -- AHB ERROR: in the middle, at the first word; reads stop at the error
    run(ERR_LO - 40, 200, 0, true);
    run(ERR_LO + 16#21#, 10, 0, true);
    -- a clean run after an error works and STATUS has been cleared
    run(MEMBASE + 16#102#, 33, 5);

    -- buffers past 0xFFFFFFFF: the words up to the top, then ERR (no wrap
    -- to 0x00000000); one that ends at 0xFFFFFFFF is a normal operation
    run(x"FFFFFFF6", 20, 16#55#, true);
    run(x"FFFFFC02", 2000, 0, true);
    run(x"FFFFFFFF", 2, 1, true);
    run(x"FFFFFFF0", 16, 0);

    -- writes while BUSY are ignored, START while busy is ignored
    cov_lo <= MEMBASE;
    cov_hi <= MEMBASE + 1020;
    apb_write(16#08#, std_logic_vector(MEMBASE));
    apb_write(16#0C#, x"00000400");
    apb_write(16#10#, x"00000000");
    apb_write(16#00#, x"00000001");
    apb_write(16#08#, x"12345678");
    apb_write(16#0C#, x"00000001");
    apb_write(16#10#, x"00005555");
    apb_read(16#04#, rd);
    check(rd(0) = '1', "not BUSY during a run");
    apb_read(16#08#, rd);
    check(rd = std_logic_vector(MEMBASE), "ADDR written while busy");
    for i in 1 to 1000 loop
      apb_read(16#04#, rd);
      exit when rd(0) = '0';
    end loop;
    check(rd(2 downto 0) = "010", "STATUS after the busy-write run " & to_hstring(rd));
    apb_read(16#10#, rd);
    check(unsigned(rd(15 downto 0)) = ref_sum(MEMBASE, 1024, x"0000"), "SUM after busy writes");

    check(proto_err = 0, integer'image(proto_err) & " AHB protocol violations");
    if fails = 0 then
      report "chksum: " & integer'image(runs) & " runs, " & integer'image(reads)
        & " beats, all checks passed";
      report "PASS";
    else
      report integer'image(fails) & " checks failed" severity failure;
    end if;
    std.env.finish;
  end process;
end architecture;
